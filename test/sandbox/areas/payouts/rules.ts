import { PAYOUT_PREFIX } from '../../core/router';
import type { EndpointRules, WireRule } from '../../rules/types';

/** One address; deliberately loose (seed: "valid email or blank"). */
export const PAYOUT_EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const PAYMENT_MODES = ['NEFT', 'RTGS', 'IFT', 'IMPSP2A', 'IMPSP2P'] as const;

const form = (pattern: RegExp, says: string): WireRule => ({ type: 'text', pattern, says });

/** Bulk payout (POST {payout_url}/v1/bulk/payouts): multipart fields and the sheet's columns. */
export const BULK_PAYOUT: EndpointRules = {
	method: 'POST',
	path: `${PAYOUT_PREFIX}/v1/bulk/payouts`,
	fields: {
		request_id: { type: 'text', required: true, maxLength: 30 },
		currency: {
			type: 'currency',
			required: true,
			pattern: /^[A-Z]{3}$/,
			says: 'a 3-letter ISO code',
		},
		remark: { type: 'text', required: true, mayBeEmpty: true, maxLength: 30 },
		callback_url: { type: 'webhookUrl', required: true, mayBeEmpty: true, maxLength: 100 },
		checksum: { type: 'text', required: true, pattern: /^[0-9a-f]{64}$/ },
	},
	columns: {
		'Reference No': { type: 'text', required: true, maxLength: 35 },
		'Payment Mode': { type: 'text', required: true, oneOf: PAYMENT_MODES },
		Amount: { type: 'number', required: true, above: 0, decimals: 2 },
		Remark: { type: 'text', required: true, maxLength: 30 },
		'Beneficiary Account Number': form(/^\d{9,18}$/, '9-18 digits'),
		'Beneficiary Account Type': form(/^[A-Z]{2,3}$/, '2-3 upper-case letters'),
		'Beneficiary IFSC': form(/^[A-Z]{4}0[A-Z0-9]{6}$/, 'form XXXX0XXXXXX'),
		'Beneficiary Branch': form(/^[A-Za-z0-9]{4}$/, '4 letters or digits'),
		'Beneficiary Name': {
			...form(/^[A-Za-z ]{3,35}$/, '3-35 letters and spaces'),
			required: true,
		},
		'Beneficiary Email': { ...form(PAYOUT_EMAIL, 'valid email'), type: 'email' },
		'Beneficiary Mobile': form(/^(?:\d{10}|\d{12})$/, '10 or 12 digits'),
		'Beneficiary MMID': form(/^\d{7}$/, '7 digits'),
		'Beneficiary LEI Code': form(/^[A-Za-z0-9]{20}$/, '20 letters or digits'),
		'Beneficiary NRE Flag': { ...form(/^EX$/, 'EX or blank'), oneOf: ['EX'] },
	},
};
