import { badRequest, errorReply, HttpError, json, replyOrError, type Reply } from '../../core/http';
import { parseMultipart } from '../../core/multipart';
import { bulkCreateLinks, RowsRejected } from './model';
import type { RouteModule } from '../../core/router';
import { CHECKOUT_PREFIX } from '../checkout/routes';

const escape = (value: unknown): string =>
	String(value).replace(
		/[&<>"']/g,
		(c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
	);

/** A small HTML page of label / value rows, for the links the sandbox hands out. */
export function page(status: number, title: string, rows: [string, string][]): Reply {
	const cells = rows.map(([k, v]) => `<tr><th>${escape(k)}</th><td>${escape(v)}</td></tr>`);
	return {
		status,
		contentType: 'text/html; charset=utf-8',
		text: [
			'<!doctype html>',
			`<html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title></head>`,
			`<body><h1>${escape(title)}</h1><table>${cells.join('')}</table></body></html>`,
			'',
		].join('\n'),
	};
}

/** Payment links (Payment Link channel key): deactivate and bulk upload. */
export const registerPaymentLinkRoutes: RouteModule = (router, env) => {
	const { state } = env;

	router.add({
		method: 'POST',
		path: '/payment-links/v1/deactivate',
		auth: { keys: ['paymentLink'] },
		body: 'json',
		handler: ({ json: body }) => {
			const dataId = (body as { data_id?: unknown } | undefined)?.data_id;
			if (typeof dataId !== 'string' || dataId === '') return badRequest('data_id is required');
			const link = state.paymentLinks.get(dataId);
			// Only an active link can be deactivated; expired ones count as "not found" here.
			if (link?.status !== 'Active') {
				return json(400, {
					status: 'fail',
					code: 'E0021',
					message: 'Payment link record not found or already deactivated',
				});
			}
			link.status = 'Deactivated';
			return json(200, {
				status: 'success',
				code: '00',
				message: 'Payment link deactivated successfully',
			});
		},
	});

	router.add({
		method: 'POST',
		path: '/payment-links/v1/bulk-upload',
		auth: { keys: ['paymentLink'] },
		handler: async ({ body, headers }) => {
			const parts = parseMultipart(body, headers['content-type']);
			const file = parts?.find((p) => p.name === 'payment_link_file' && p.filename !== undefined);
			if (!file) return badRequest('payment_link_file is required (multipart/form-data file)');
			// The file URL points at the test control that serves the kept upload.
			const base = state.checkoutUrl.slice(0, -CHECKOUT_PREFIX.length);
			try {
				const data = await bulkCreateLinks(
					state,
					{ name: file.filename as string, data: file.data },
					(n) => `${base}/__sandbox/payment-links/uploads/${n}/file`,
				);
				const message = data.links_failed
					? `${data.links_created} payment link(s) created, ${data.links_failed} failed`
					: 'Payment links created successfully';
				return json(200, { data, message, status: 'success', code: '00' });
			} catch (caught) {
				if (caught instanceof RowsRejected) {
					const { message, errors } = caught;
					return json(400, { status: 'fail', code: '400', message, errors });
				}
				if (caught instanceof HttpError) return errorReply(caught);
				throw caught;
			}
		},
	});

	// The payment_link of a created link: a page that says whether it takes payments.
	router.add({
		method: 'GET',
		path: `${CHECKOUT_PREFIX}/link/:link_id`,
		auth: 'none',
		handler: ({ params }) => {
			const link = [...state.paymentLinks.values()].find((l) => l.link_id === params.link_id);
			if (!link) return page(404, 'Payment link not found', []);
			const open = link.status === 'Active';
			return page(open ? 200 : 410, open ? 'Pay' : `Payment link ${link.status.toLowerCase()}`, [
				['Link', link.link_id],
				['Amount', `${link.currency} ${link.amount}`],
				['Status', link.status],
			]);
		},
	});

	// Test controls (not logged or faulted: /__sandbox/ prefix).
	router.add({
		method: 'GET',
		path: '/__sandbox/payment-links',
		auth: 'none',
		handler: () =>
			json(200, {
				status: 'success',
				data: {
					links: [...state.paymentLinks.values()],
					uploads: state.paymentLinkUploads.map(({ data, ...rest }) => ({
						...rest,
						size: data.length,
					})),
				},
			}),
	});
	router.add({
		method: 'GET',
		path: '/__sandbox/payment-links/uploads/:n/file',
		auth: 'none',
		handler: ({ params }) => {
			const upload = state.paymentLinkUploads[Number(params.n) - 1];
			if (!/^\d+$/.test(params.n) || !upload) {
				return json(404, { status: 'fail', code: '404', message: 'Upload not found' });
			}
			return {
				status: 200,
				text: upload.data,
				contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
				headers: { 'content-disposition': `attachment; filename="${upload.file_name}"` },
			};
		},
	});
	for (const action of ['expire', 'reactivate'] as const) {
		router.add({
			method: 'POST',
			path: `/__sandbox/payment-links/:data_id/${action}`,
			auth: 'none',
			handler: ({ params }) =>
				replyOrError(() => {
					const link =
						action === 'expire'
							? state.expireLink(params.data_id)
							: state.reactivateLink(params.data_id);
					return json(200, { status: 'success', data: link });
				}),
		});
	}
};
