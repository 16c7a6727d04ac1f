import type { Cell, Row, SheetSchema, SourcedRow, RowViolation } from './schema';
import { rules } from './schema';

export const PAYOUT_MODES = ['NEFT', 'RTGS', 'IFT', 'IMPSP2A', 'IMPSP2P'];
/** 50 crore rupees: NEFT above it needs the beneficiary's LEI code. */
export const LEI_THRESHOLD = 500000000;

const decimals = (v: Cell) => /\.(\d+)$/.exec(String(v))?.[1].length ?? 0;

/** The 14 columns of the payout file, exactly as the service spells them. */
export const payoutSchema: SheetSchema = {
	maxRows: 500,
	columns: [
		{ header: 'Reference No', param: 'referenceNo', kind: 'text', required: true, description: 'Unique per row, at most 35 characters', check: rules.maxLength(35) },
		{ header: 'Payment Mode', param: 'paymentMode', kind: 'text', required: true, description: 'NEFT, RTGS, IFT, IMPSP2A or IMPSP2P', check: rules.oneOf(PAYOUT_MODES) },
		{
			header: 'Amount',
			param: 'amount',
			kind: 'number',
			required: true,
			description: 'Above 0, at most 2 decimal places',
			check: (v) => (typeof v !== 'number' || v <= 0 ? 'must be a number above 0' : decimals(v) > 2 ? 'must have at most 2 decimal places' : undefined),
		},
		{ header: 'Remark', param: 'rowRemark', kind: 'text', required: true, description: 'Row remark, at most 30 characters', check: rules.maxLength(30) },
		{ header: 'Beneficiary Account Number', param: 'accountNumber', kind: 'text', description: '9 to 18 digits (NEFT, RTGS, IMPSP2A, IFT)', check: rules.pattern(/^\d{9,18}$/, 'must be 9 to 18 digits') },
		{ header: 'Beneficiary Account Type', param: 'accountType', kind: 'text', description: 'SA, CA, OD, …', check: rules.pattern(/^[A-Z]{2,3}$/, 'must be an account type code such as SA, CA or OD') },
		{ header: 'Beneficiary IFSC', param: 'ifsc', kind: 'text', description: 'Form XXXX0XXXXXX (NEFT, RTGS, IMPSP2A)', check: rules.pattern(/^[A-Z]{4}0[A-Z0-9]{6}$/, 'must have the form XXXX0XXXXXX') },
		{ header: 'Beneficiary Branch', param: 'branch', kind: 'text', description: '4-character branch code (IFT)', check: rules.pattern(/^[A-Za-z0-9]{4}$/, 'must be a 4-character branch code') },
		{ header: 'Beneficiary Name', param: 'name', kind: 'text', required: true, description: '3 to 35 letters and spaces', check: rules.pattern(/^[A-Za-z ]{3,35}$/, 'must be 3 to 35 letters and spaces') },
		{ header: 'Beneficiary Email', param: 'email', kind: 'text', description: 'A valid email, or blank', check: rules.email },
		{ header: 'Beneficiary Mobile', param: 'mobile', kind: 'text', description: '10 or 12 digits (IMPSP2P)', check: rules.pattern(/^(\d{10}|\d{12})$/, 'must be 10 or 12 digits') },
		{ header: 'Beneficiary MMID', param: 'mmid', kind: 'text', description: '7 digits (IMPSP2P)', check: rules.pattern(/^\d{7}$/, 'must be 7 digits') },
		{ header: 'Beneficiary LEI Code', param: 'leiCode', kind: 'text', description: 'Required for NEFT above 50 crore rupees', check: rules.pattern(/^[A-Za-z0-9]{20}$/, 'must be 20 letters or digits') },
		{ header: 'Beneficiary NRE Flag', param: 'nreFlag', kind: 'text', description: 'EX or blank (NEFT, RTGS)', check: rules.oneOf(['EX']) },
	],
	rowRules: (row: Row) => {
		const broken: Array<[string, string]> = [];
		const mode = String(row['Payment Mode'] ?? '');
		const need = (column: string, why: string) => {
			if (row[column] === undefined) broken.push([column, `is required for ${why}`]);
		};
		if (['NEFT', 'RTGS', 'IMPSP2A'].includes(mode)) {
			need('Beneficiary Account Number', mode);
			need('Beneficiary IFSC', mode);
		}
		if (mode === 'IFT') {
			need('Beneficiary Account Number', mode);
			need('Beneficiary Branch', mode);
		}
		if (mode === 'IMPSP2P') {
			need('Beneficiary Mobile', mode);
			need('Beneficiary MMID', mode);
		}
		if (mode === 'NEFT' && typeof row.Amount === 'number' && row.Amount > LEI_THRESHOLD) {
			need('Beneficiary LEI Code', 'NEFT above 50 crore rupees (500000000)');
		}
		if (row['Beneficiary NRE Flag'] !== undefined && mode !== 'NEFT' && mode !== 'RTGS' && PAYOUT_MODES.includes(mode)) {
			broken.push(['Beneficiary NRE Flag', 'may only be set for NEFT or RTGS']);
		}
		return broken;
	},
	fileRules: (rows: SourcedRow[]) => {
		const firstRow = new Map<string, number>();
		const violations: RowViolation[] = [];
		for (const { row, item, values } of rows) {
			const reference = values['Reference No'];
			if (reference === undefined) continue;
			const key = String(reference);
			const first = firstRow.get(key);
			if (first === undefined) firstRow.set(key, row);
			else violations.push({ row, item, column: 'Reference No', rule: `must be unique; row ${first} has it too`, value: reference });
		}
		return violations;
	},
};
