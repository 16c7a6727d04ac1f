import { createHash } from 'node:crypto';

import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

/** n8n's limit of a data table's name is generous; this keeps the name readable in lists. */
const MAX_HOST = 60;

/** The payout account a ledger belongs to: the credential's Payout URL and key, never its secret. */
export interface PayoutAccount {
	/** Stable and secret-free: the lock key and the cache key (with the project). */
	key: string;
	/** The data table's name: "Payout ledger <host> <last 6 of the key>". */
	tableName: string;
	/** The results address's table (resultsAddress.ts): "Payout results <host> <last 6>". */
	resultsTableName: string;
}

function hostOf(payoutUrl: string): string {
	try {
		const url = new URL(payoutUrl);
		const path = url.pathname.replace(/\/+$/, '');
		return `${url.host}${path}`.slice(0, MAX_HOST);
	} catch {
		return payoutUrl.slice(0, MAX_HOST);
	}
}

/**
 * A pasted access token names no key: such credentials share the Payout URL's ledger, which can
 * only refuse more (a reference paid from another account of the same service), never pay twice.
 */
export function payoutAccount(credentials: ICredentialDataDecryptedObject): PayoutAccount {
	const host = hostOf(String(credentials.payoutUrl ?? ''));
	const merchantKey =
		credentials.obtainBy === 'paste' ? '' : String(credentials.merchantKey ?? '').trim();
	const tail = merchantKey ? merchantKey.slice(-6) : 'token';
	const digest = createHash('sha256').update(`${host}|${merchantKey}`).digest('hex').slice(0, 16);
	return {
		key: digest,
		tableName: `Payout ledger ${host} ${tail}`,
		resultsTableName: `Payout results ${host} ${tail}`,
	};
}
