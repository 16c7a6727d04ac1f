import { errorReply, generalError, HttpError, json, type Reply } from '../../core/http';
import { parseMultipart } from '../../core/multipart';
import {
	checkPayoutFields,
	payoutFilePart,
	readPayoutSheet,
	validatePayoutRows,
	type PayoutBatch,
} from './model';
import { PAYOUT_PREFIX, type RouteModule } from '../../core/router';
import { prefersHtml } from '../control/pages';
import { payoutsPage } from './page';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Payout API under {payout_url}: bearer token issuance and bulk payouts; and their controls. */
export const registerPayoutRoutes: RouteModule = (router, env) => {
	// Our assumption (the spec does not show it): the payout key pair in merchant-key/-secret.
	router.add({
		method: 'GET',
		path: `${PAYOUT_PREFIX}/v1/token`,
		auth: { keys: ['payout'] },
		handler: () => {
			const { token } = env.state.issuePayoutToken();
			return json(200, {
				status: 'success',
				code: '00',
				message: 'Token generated successfully',
				data: {
					access_token: token,
					token_type: 'Bearer',
					expires_in: env.state.tokenLifetimeSeconds,
				},
			});
		},
	});

	// Checks in order: bearer (auth rule) → fields → checksum → file → rows → unique request_id.
	router.add({
		method: 'POST',
		path: `${PAYOUT_PREFIX}/v1/bulk/payouts`,
		auth: 'payoutBearer',
		handler: async ({ body, headers }): Promise<Reply> => {
			try {
				const contentType = headers['content-type'];
				if (!/^multipart\/form-data\b/i.test(contentType ?? '')) {
					throw new HttpError(400, 'Content-Type must be multipart/form-data');
				}
				const parts = parseMultipart(body, contentType);
				if (!parts) throw new HttpError(400, 'Malformed multipart/form-data body');
				const fields = checkPayoutFields(parts);
				const file = payoutFilePart(parts);
				const rows = await readPayoutSheet(file.data);
				const errors = validatePayoutRows(rows);
				if (errors.length > 0) {
					const failing = new Set(errors.map((e) => e.row)).size;
					return json(400, {
						status: 'fail',
						code: '400',
						message: `Validation failed: ${failing} row(s) have errors`,
						errors,
					});
				}
				// After validation, so a corrected re-upload of a rejected batch may keep its id; no
				// await from here on, so concurrent uploads of one id cannot both be stored.
				const { state } = env;
				if (state.payoutBatches.has(fields.request_id)) {
					return generalError(409, 'E0021', 'request_id already exists');
				}
				const batch: PayoutBatch = {
					request_id: fields.request_id,
					currency: fields.currency,
					remark: fields.remark,
					callback_url: fields.callback_url,
					rows: rows.map((row) => row.values),
					fileName: file.filename,
					file: Buffer.from(file.data),
					queuedAt: Date.now(),
					results: [],
					callbackAttempts: [],
				};
				state.payoutBatches.set(batch.request_id, batch);
				state.payoutCallbacks.schedule(batch, state.settings, env.keys.webhook.notificationSecret);
				return json(200, {
					data: {
						request_id: batch.request_id,
						total_records: batch.rows.length,
						payouts_queued: batch.rows.length,
					},
					message: 'Bulk payouts queued successfully',
					status: 'success',
					code: '00',
				});
			} catch (error) {
				if (error instanceof HttpError) return errorReply(error);
				throw error;
			}
		},
	});

	// Test controls (not logged or faulted: CONTROL_PREFIX). Batches without the file bytes; a
	// browser gets a page.
	router.add({
		method: 'GET',
		path: '/__sandbox/payouts',
		auth: 'none',
		handler: ({ headers }) => {
			const batches = [...env.state.payoutBatches.values()];
			if (prefersHtml(headers)) return payoutsPage(batches);
			return json(200, {
				status: 'success',
				data: batches.map(({ file, ...rest }) => ({ ...rest, fileSize: file.length })),
			});
		},
	});
	router.add({
		method: 'GET',
		path: '/__sandbox/payouts/:request_id/file',
		auth: 'none',
		handler: ({ params }) => {
			const batch = env.state.payoutBatches.get(params.request_id);
			if (!batch) return generalError(404, '404', 'Payout batch not found');
			// Encoded: a raw non-ASCII file name is not allowed in a header.
			const name = encodeURIComponent(batch.fileName);
			return {
				status: 200,
				text: batch.file,
				contentType: XLSX_TYPE,
				headers: { 'content-disposition': `attachment; filename*=UTF-8''${name}` },
			};
		},
	});
};
