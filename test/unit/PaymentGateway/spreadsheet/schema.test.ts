import type { SheetSchema } from '../../../../nodes/PaymentGateway/spreadsheet/schema';
import {
	checkRows,
	column,
	describeRowViolation,
} from '../../../../nodes/PaymentGateway/spreadsheet/schema';

const schema: SheetSchema = {
	maxRows: 2,
	columns: [
		column('Name', 'name', 'text', 'A name', { required: true, maxLength: 5 }),
		column('Count', 'count', 'number', 'A count', { integer: true, min: 1 }),
		column('Day', 'day', 'date', 'A day'),
	],
	rowRules: (row) => (row.Count === undefined ? [['Count', 'is required here']] : []),
};

describe('checkRows', () => {
	it('types every cell with the shared coercion: trimmed text, numeric text as a number, a strict date', () => {
		const { rows, violations } = checkRows(schema, [
			{ row: 2, values: { Name: ' Ann ', Count: '3', Day: '2031-01-31T10:00:00Z' } },
		]);
		expect(violations).toEqual([]);
		expect(rows[0].values).toEqual({ Name: 'Ann', Count: 3, Day: '2031-01-31' });
	});

	it('names every broken cell with its column, rule and the value received; a refused cell is not reported twice', () => {
		const { violations } = checkRows(schema, [
			{ row: 2, item: 0, values: { Name: 'Annabel', Count: 'x', Day: '2031-02-30' } },
		]);
		expect(violations.map((v) => [v.column, v.rule, v.value])).toEqual([
			['Name', 'must be at most 5 characters', 'Annabel'],
			['Count', 'must be a plain number (no currency symbol, commas or spaces)', 'x'],
			['Day', 'must be a calendar date YYYY-MM-DD that exists', '2031-02-30'],
		]);
	});

	it('counts rows: none, or more than the maximum, is refused', () => {
		expect(checkRows(schema, []).violations[0].rule).toBe('must have at least one data row');
		const three = [2, 3, 4].map((row) => ({ row, values: { Name: 'A', Count: 1 } }));
		expect(checkRows(schema, three).violations[0].rule).toBe('may have at most 2 data rows');
	});

	it('describes a violation with row, item, column, rule and value, non-finite numbers as themselves', () => {
		expect(
			describeRowViolation({
				row: 3,
				item: 1,
				column: 'Count',
				rule: 'must be a finite number',
				value: Infinity,
			}),
		).toBe('row 3 (item 1), Count: must be a finite number (received Infinity)');
	});
});
