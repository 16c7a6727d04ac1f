import type { Row, RowViolation, SheetSchema, SourcedRow } from './schema';
import { column } from './schema';

export const PAYOUT_MODES = ['NEFT', 'RTGS', 'IFT', 'IMPSP2A', 'IMPSP2P'];
/** 50 crore rupees: NEFT above it needs the beneficiary's LEI code. */
export const LEI_THRESHOLD = 500000000;

const pattern = (regex: RegExp, rule: string) => ({ pattern: { regex, rule } });
const options = (values: string[]) => ({
	options: values.map((value) => ({ name: value, value })),
});

/** The 14 columns of the payout file, exactly as the service spells them. */
export const payoutSchema: SheetSchema = {
	maxRows: 500,
	columns: [
		column('Reference No', 'referenceNo', 'text', 'Unique per row, at most 35 characters', {
			required: true,
			maxLength: 35,
		}),
		column('Payment Mode', 'paymentMode', 'options', 'NEFT, RTGS, IFT, IMPSP2A or IMPSP2P', {
			required: true,
			...options(PAYOUT_MODES),
		}),
		column('Amount', 'amount', 'number', 'Above 0, at most 2 decimal places', {
			required: true,
			above: 0,
			decimals: 2,
		}),
		column('Remark', 'rowRemark', 'text', "This row's remark, at most 30 characters", {
			required: true,
			maxLength: 30,
			label: 'Row Remark',
		}),
		column(
			'Beneficiary Account Number',
			'accountNumber',
			'text',
			'9 to 18 digits (NEFT, RTGS, IMPSP2A, IFT)',
			pattern(/^\d{9,18}$/, 'must be 9 to 18 digits'),
		),
		column(
			'Beneficiary Account Type',
			'accountType',
			'text',
			'SA, CA, OD, …',
			pattern(/^[A-Z]{2,3}$/, 'must be an account type code such as SA, CA or OD'),
		),
		column(
			'Beneficiary IFSC',
			'ifsc',
			'text',
			'Form XXXX0XXXXXX (NEFT, RTGS, IMPSP2A)',
			pattern(/^[A-Z]{4}0[A-Z0-9]{6}$/, 'must have the form XXXX0XXXXXX'),
		),
		column(
			'Beneficiary Branch',
			'branch',
			'text',
			'4-character branch code (IFT)',
			pattern(/^[A-Za-z0-9]{4}$/, 'must be a 4-character branch code'),
		),
		column('Beneficiary Name', 'name', 'text', '3 to 35 letters and spaces', {
			required: true,
			...pattern(/^[A-Za-z ]{3,35}$/, 'must be 3 to 35 letters and spaces'),
		}),
		column('Beneficiary Email', 'email', 'email', 'A valid email, or blank'),
		column(
			'Beneficiary Mobile',
			'mobile',
			'text',
			'10 or 12 digits (IMPSP2P)',
			pattern(/^(\d{10}|\d{12})$/, 'must be 10 or 12 digits'),
		),
		column(
			'Beneficiary MMID',
			'mmid',
			'text',
			'7 digits (IMPSP2P)',
			pattern(/^\d{7}$/, 'must be 7 digits'),
		),
		column(
			'Beneficiary LEI Code',
			'leiCode',
			'text',
			'Required for NEFT above 50 crore rupees',
			pattern(/^[A-Za-z0-9]{20}$/, 'must be 20 letters or digits'),
		),
		column(
			'Beneficiary NRE Flag',
			'nreFlag',
			'options',
			'EX or blank (NEFT, RTGS)',
			options(['EX']),
		),
	],
	rowRules: (row: Row) => {
		const broken: Array<[string, string]> = [];
		const mode = String(row['Payment Mode'] ?? '');
		const need = (header: string, why: string) => {
			if (row[header] === undefined) broken.push([header, `is required for ${why}`]);
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
		// Only an Amount that passed its own column counts: a broken one is reported there, never here.
		if (mode === 'NEFT' && typeof row.Amount === 'number' && row.Amount > LEI_THRESHOLD) {
			need('Beneficiary LEI Code', 'NEFT above 50 crore rupees (500000000)');
		}
		if (
			row['Beneficiary NRE Flag'] !== undefined &&
			mode !== 'NEFT' &&
			mode !== 'RTGS' &&
			PAYOUT_MODES.includes(mode)
		) {
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
			else
				violations.push({
					row,
					item,
					column: 'Reference No',
					rule: `must be unique; row ${first} has it too`,
					value: reference,
				});
		}
		return violations;
	},
};
