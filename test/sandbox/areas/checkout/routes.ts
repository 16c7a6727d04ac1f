import { HttpError, type Reply } from '../../core/http';
import { TEST_CARDS, THREE_DS_CODE, type CompleteOutcome } from '../payments/model';
import type { RouteModule } from '../../core/router';
import type { SandboxState } from '../../core/state';

/** Hosted payment pages live under {checkout_url} = base URL + this prefix. */
export const CHECKOUT_PREFIX = '/checkout';

const escape = (value: unknown): string =>
	String(value).replace(
		/[&<>"']/g,
		(c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
	);

const html = (status: number, title: string, body: string): Reply => ({
	status,
	contentType: 'text/html; charset=utf-8',
	text: [
		'<!doctype html>',
		'<html lang="en">',
		`<head><meta charset="utf-8"><title>${escape(title)}</title></head>`,
		`<body>\n<h1>${escape(title)}</h1>\n${body}\n</body>`,
		'</html>',
		'',
	].join('\n'),
});

const errorPage = (error: HttpError): Reply =>
	html(error.status, 'Payment not possible', `<p class="error">${escape(error.message)}</p>`);

const redirect = (location: string): Reply => ({
	status: 302,
	text: `Redirecting to ${location}`,
	headers: { location },
});

/** The order's page data, or an HttpError for unknown and completed orders. */
function payable(state: SandboxState, pOrderId: string) {
	const order = state.orders.get(pOrderId);
	const record = state.transactionsByPOrderId.get(pOrderId);
	if (!order || !record) throw new HttpError(404, `Order ${pOrderId} not found`);
	if (!order.open) {
		throw new HttpError(409, `Order ${pOrderId} is already completed (status ${record.status})`);
	}
	return { order, record };
}

function paymentPage(state: SandboxState, pOrderId: string, framed: boolean, error = ''): Reply {
	const { order, record } = payable(state, pOrderId);
	const data = order.request.data;
	const rows: [string, string][] = [
		['Order', record.m_order_id || record.p_order_id],
		['Amount', `${record.currency} ${record.amount}`],
		['Description', String(data.order_details?.description ?? '')],
		['Payment', order.action === 'AUTH_REVERSAL' ? 'Save card (no charge)' : order.action],
	];
	// In an iframe the result page replaces the whole window, as hosted iframes do.
	const target = framed ? ' target="_top"' : '';
	return html(
		error ? 400 : 200,
		'Sandbox checkout',
		[
			`<table>${rows.map(([k, v]) => `<tr><th>${k}</th><td>${escape(v)}</td></tr>`).join('')}`,
			'</table>',
			error ? `<p class="error">${escape(error)}</p>` : '',
			`<form method="post" action="${CHECKOUT_PREFIX}/pay/${escape(pOrderId)}"${target}>`,
			`<label>Card number <input name="card" value="${TEST_CARDS.visa}"></label>`,
			'<button name="outcome" value="pay">Pay</button>',
			'<button name="outcome" value="decline">Decline</button>',
			'<button name="outcome" value="cancel">Cancel</button>',
			'</form>',
			`<p>Test cards: ${TEST_CARDS.visa} pays; ${TEST_CARDS.threeDSecure} asks for 3-D Secure ` +
				`code ${THREE_DS_CODE}; ${TEST_CARDS.declined} is declined; ` +
				`${TEST_CARDS.mandateNotRegistered} pays without a mandate.</p>`,
		].join('\n'),
	);
}

function challengePage(pOrderId: string, card: string): Reply {
	return html(
		200,
		'3-D Secure',
		[
			'<p>Your bank asks for the one-time code it sent you.</p>',
			`<form method="post" action="${CHECKOUT_PREFIX}/pay/${escape(pOrderId)}/3ds">`,
			`<input type="hidden" name="card" value="${escape(card)}">`,
			'<label>Code <input name="otp" autocomplete="one-time-code"></label>',
			'<button name="outcome" value="pay">Submit</button>',
			'<button name="outcome" value="cancel">Cancel</button>',
			'</form>',
		].join('\n'),
	);
}

const form = (body: Buffer) => new URLSearchParams(body.toString('utf8'));

/** The hosted payment page, its 3-D Secure step and the default result pages. */
export const registerCheckoutRoutes: RouteModule = (router, env) => {
	const guarded = (run: () => Reply): Reply => {
		try {
			return run();
		} catch (error) {
			if (error instanceof HttpError) return errorPage(error);
			throw error;
		}
	};
	const finish = (pOrderId: string, outcome: string, card: string, otp?: string): Reply => {
		try {
			const result = env.state.completeOrder(pOrderId, outcome as CompleteOutcome, card, otp);
			return redirect(result.redirect);
		} catch (error) {
			// A mistyped card number shows the page again; other errors get the error page.
			if (error instanceof HttpError && error.status === 400 && outcome !== 'cancel') {
				return paymentPage(env.state, pOrderId, false, error.message);
			}
			throw error;
		}
	};

	for (const kind of ['pay', 'iframe']) {
		router.add({
			method: 'GET',
			path: `${CHECKOUT_PREFIX}/${kind}/:p_order_id`,
			auth: 'none',
			handler: ({ params }) =>
				guarded(() => paymentPage(env.state, params.p_order_id, kind === 'iframe')),
		});
	}

	router.add({
		method: 'POST',
		path: `${CHECKOUT_PREFIX}/pay/:p_order_id`,
		auth: 'none',
		handler: ({ params, body }) =>
			guarded(() => {
				const id = params.p_order_id;
				payable(env.state, id);
				const fields = form(body);
				const outcome = fields.get('outcome') ?? 'pay';
				const card = (fields.get('card') ?? TEST_CARDS.visa).replace(/\s+/g, '');
				if (outcome === 'pay' && card === TEST_CARDS.threeDSecure) return challengePage(id, card);
				return finish(id, outcome, card);
			}),
	});

	router.add({
		method: 'POST',
		path: `${CHECKOUT_PREFIX}/pay/:p_order_id/3ds`,
		auth: 'none',
		handler: ({ params, body }) =>
			guarded(() => {
				const fields = form(body);
				const outcome = fields.get('outcome') === 'cancel' ? 'cancel' : 'pay';
				const card = fields.get('card') ?? TEST_CARDS.threeDSecure;
				// An empty code is a wrong code.
				return finish(params.p_order_id, outcome, card, fields.get('otp') ?? '');
			}),
	});

	// Default success / cancel / failure pages (settings.defaultUrls).
	router.add({
		method: 'GET',
		path: `${CHECKOUT_PREFIX}/result/:kind`,
		auth: 'none',
		handler: ({ params, query }) => {
			const titles: Record<string, string> = {
				success: 'Payment successful',
				cancel: 'Payment cancelled',
				failure: 'Payment failed',
			};
			const title = titles[params.kind];
			if (!title) return html(404, 'Not found', '<p>Unknown result page.</p>');
			const rows = Object.entries(query)
				.map(([k, v]) => `<tr><th>${escape(k)}</th><td>${escape(v)}</td></tr>`)
				.join('');
			return html(200, title, `<table>${rows}</table>`);
		},
	});
};
