import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	IDataObject,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import {
	extractAccessToken,
	TOKEN_PATH,
	tokenRequest,
} from '../../../credentials/PaymentGatewayPayoutApi.credentials';
import { joinUrl, unsafeUrlReason } from '../../../credentials/shared/url';
import { INVOICE_ITEM_LIST_PATH } from '../actions/invoiceItem/list';
import { ADD_PLAN_PATH, DEACTIVATE_LINK_PATH, posOrderPath } from '../actions/paths';
import { PAYOUT_UPLOAD_PATH } from '../actions/payout/bulkCreate.upload';
import { TRANSACTION_LIST_PATH } from '../actions/transaction/list';
import { encodeMultipart } from '../transport/multipart';
import { redactText, secretsOf } from '../transport/redact';

/**
 * A request that changes nothing on the service and tells bad keys (401) apart from keys that were
 * accepted. Where no read exists for a channel, the probe sends a request the service must refuse
 * for its content (an unknown payment link, an empty plan, an upload without a file): only a service
 * that accepted the keys gets that far.
 */
interface Probe {
	method: 'GET' | 'POST';
	path: string;
	body?: IDataObject;
	emptyMultipart?: boolean;
	/** The refusal, besides 2xx, that only a service that accepted the keys can give. */
	expectedRefusal?: (status: number, body: IDataObject) => boolean;
}

const message = (body: IDataObject) => String(body.message ?? '');
const refusedForContent = (status: number, body: IDataObject) =>
	(status === 400 || status === 422) && !['404', '429'].includes(String(body.code));

const PROBES: Record<string, Probe> = {
	listTransactions: { method: 'GET', path: `${TRANSACTION_LIST_PATH}?page=1&perpage=1` },
	listInvoiceItems: { method: 'GET', path: `${INVOICE_ITEM_LIST_PATH}?page=1&perpage=1` },
	deactivateUnknownLink: {
		method: 'POST',
		path: DEACTIVATE_LINK_PATH,
		body: { data_id: 'n8n-credential-test' },
		expectedRefusal: (_status, body) => String(body.code) === 'E0021',
	},
	emptyPlan: {
		method: 'POST',
		path: ADD_PLAN_PATH,
		body: {},
		expectedRefusal: refusedForContent,
	},
	unknownPosOrder: {
		method: 'GET',
		path: posOrderPath('0'),
		expectedRefusal: (status, body) => status === 404 && /order/i.test(message(body)),
	},
	emptyPayoutUpload: {
		method: 'POST',
		path: PAYOUT_UPLOAD_PATH,
		emptyMultipart: true,
		expectedRefusal: refusedForContent,
	},
};

interface ProbeAnswer {
	statusCode?: number;
	body?: unknown;
	networkError?: string;
}

const isServiceBody = (body: unknown): body is IDataObject =>
	typeof body === 'object' && body !== null && ('status' in body || 'code' in body);

async function send(ctx: ICredentialTestFunctions, options: IDataObject): Promise<ProbeAnswer> {
	try {
		// CredentialTestContext offers only the legacy request helper in n8n 2.x.
		const response = (await ctx.helpers.request({
			...options,
			json: true,
			resolveWithFullResponse: true,
			simple: false,
			// A redirect could carry the key headers to another host or to plain http://.
			followRedirect: false,
			followAllRedirects: false,
			timeout: 20000,
		})) as { statusCode: number; body: unknown };
		let body = response.body;
		if (typeof body === 'string') {
			try {
				body = JSON.parse(body);
			} catch {
				// An HTML page or plain text: judged by its status below.
			}
		}
		return { statusCode: response.statusCode, body };
	} catch (error) {
		const cause = (error as { cause?: { code?: string } }).cause;
		return {
			networkError: String(
				cause?.code ?? (error as { code?: string }).code ?? (error as Error).message,
			),
		};
	}
}

function judge(
	answer: ProbeAnswer,
	probe: Probe,
	url: string,
	accept2xx: (body: unknown) => boolean = () => false,
): INodeCredentialTestResult {
	const origin = new URL(url).origin;
	if (answer.networkError !== undefined) {
		return { status: 'Error', message: `Could not reach ${origin}: ${answer.networkError}` };
	}
	const status = answer.statusCode ?? 0;
	const serviceMessage =
		isServiceBody(answer.body) && answer.body.message ? ` (${message(answer.body)})` : '';
	if (status === 401) {
		return {
			status: 'Error',
			message: `Invalid key or secret: the service answered 401${serviceMessage}`,
		};
	}
	if (status === 403) {
		return {
			status: 'Error',
			message: `The keys were recognised but this account may not use this channel (403)${serviceMessage}`,
		};
	}
	const ok =
		status >= 200 && status < 300 && (isServiceBody(answer.body) || accept2xx(answer.body));
	const refused =
		isServiceBody(answer.body) && probe.expectedRefusal?.(status, answer.body) === true;
	if (ok || refused) return { status: 'OK', message: 'Reachable, keys accepted' };
	return {
		status: 'Error',
		message: `Unexpected answer from ${origin}: HTTP ${status}${serviceMessage}. Check the address.`,
	};
}

async function probeMerchantChannel(
	ctx: ICredentialTestFunctions,
	data: ICredentialDataDecryptedObject,
	probe: Probe,
): Promise<INodeCredentialTestResult> {
	const base = String(data.baseUrl ?? '');
	const unsafe = unsafeUrlReason(base);
	if (unsafe) return { status: 'Error', message: `Base URL refused: ${unsafe}` };
	const url = joinUrl(base, probe.path);
	const answer = await send(ctx, {
		method: probe.method,
		uri: url,
		headers: {
			'merchant-key': String(data.merchantKey ?? ''),
			'merchant-secret': String(data.merchantSecret ?? ''),
		},
		...(probe.body ? { body: probe.body } : {}),
	});
	return judge(answer, probe, url);
}

/** The result as n8n shows it: a key or token the service echoed back never reaches the editor. */
const redacted = (result: INodeCredentialTestResult, data: ICredentialDataDecryptedObject) => ({
	...result,
	message: redactText(result.message, secretsOf(data)),
});

const merchantTest = (probe: Probe) =>
	async function (this: ICredentialTestFunctions, credential: ICredentialsDecrypted) {
		return redacted(
			await probeMerchantChannel(this, credential.data ?? {}, probe),
			credential.data ?? {},
		);
	};

async function probePayout(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const data = credential.data ?? {};
	const payoutUrl = String(data.payoutUrl ?? '');
	const unsafe = unsafeUrlReason(payoutUrl);
	if (unsafe) return { status: 'Error', message: `Payout URL refused: ${unsafe}` };

	if (data.obtainBy === 'paste') {
		const probe = PROBES.emptyPayoutUpload;
		const { body, contentType } = encodeMultipart([]);
		const url = joinUrl(payoutUrl, probe.path);
		const answer = await send(this, {
			method: probe.method,
			uri: url,
			headers: {
				Authorization: `Bearer ${String(data.accessToken ?? '')}`,
				'content-type': contentType,
			},
			body,
		});
		return judge(answer, probe, url);
	}

	const request = tokenRequest(data);
	const answer = await send(this, {
		method: 'GET',
		uri: request.url,
		headers: request.headers,
		...(request.auth ? { auth: { user: request.auth.username, pass: request.auth.password } } : {}),
	});
	const verdict = judge(
		answer,
		{ method: 'GET', path: TOKEN_PATH },
		request.url,
		(body) => !!extractAccessToken(body),
	);
	if (verdict.status === 'OK' && !extractAccessToken(answer.body)) {
		return { status: 'Error', message: 'The token endpoint answered without an access token' };
	}
	return verdict.status === 'OK'
		? { status: 'OK', message: 'Reachable, keys accepted, token issued' }
		: verdict;
}

async function testPayout(this: ICredentialTestFunctions, credential: ICredentialsDecrypted) {
	return redacted(await probePayout.call(this, credential), credential.data ?? {});
}

export const credentialTest = {
	testHostedCredential: merchantTest(PROBES.listTransactions),
	testSdkCredential: merchantTest(PROBES.listTransactions),
	testS2sCredential: merchantTest(PROBES.listTransactions),
	testInvoiceCredential: merchantTest(PROBES.listInvoiceItems),
	testPaymentLinkCredential: merchantTest(PROBES.deactivateUnknownLink),
	testSubscriptionCredential: merchantTest(PROBES.emptyPlan),
	testPosCredential: merchantTest(PROBES.unknownPosOrder),
	testPayoutCredential: testPayout,
};
