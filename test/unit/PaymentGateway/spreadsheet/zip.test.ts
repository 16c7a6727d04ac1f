import { readXlsx } from '../../../../nodes/PaymentGateway/spreadsheet/xlsx';
import {
	assertXlsxBounds,
	MAX_SHEET_ROWS,
	MAX_UNPACKED_BYTES,
} from '../../../../nodes/PaymentGateway/spreadsheet/zip';
import { SHEET, workbookWithRows } from './zip-fixtures';

describe('xlsx bounds before parsing', () => {
	it('reads a 500-row sheet as before', async () => {
		const file = await workbookWithRows(500);
		await expect(assertXlsxBounds(file)).resolves.toBeUndefined();
		const sheet = await readXlsx(file);
		expect(sheet.rows).toHaveLength(500);
	});

	it('refuses a sheet with more rows than the bound, before exceljs reads it', async () => {
		const file = await workbookWithRows(MAX_SHEET_ROWS + 1, '');
		expect(file.length).toBeLessThan(2 * 1024 * 1024);
		await expect(readXlsx(file)).rejects.toThrow(
			`The spreadsheet is refused before reading: its sheet ${SHEET} has more than the ${MAX_SHEET_ROWS} rows allowed`,
		);
	});

	it('refuses a small file whose directory states a huge unpacked size', async () => {
		// 1,000 rows of 30 kB of text: about 30 MB of XML in a file of some 100 kB.
		const file = await workbookWithRows(1000, 'A'.repeat(30000));
		expect(file.length).toBeLessThan(2 * 1024 * 1024);
		await expect(readXlsx(file)).rejects.toThrow(
			/refused before reading: it unpacks to 2\d\.\d MB, more than the 24\.0 MB allowed/,
		);
	});

	it('refuses a part that unpacks to more than its directory states', async () => {
		const file = await workbookWithRows(1000, 'A'.repeat(30000), 4096);
		await expect(readXlsx(file)).rejects.toThrow(
			`its part ${SHEET} unpacks to more than its zip directory states or than the 24.0 MB allowed`,
		);
	});

	it('names the bound in MB well above a 500-row payout sheet', () => {
		expect(MAX_UNPACKED_BYTES).toBe(24 * 1024 * 1024);
		expect(MAX_SHEET_ROWS).toBeGreaterThanOrEqual(60 * 500);
	});

	it('refuses what is not a zip', async () => {
		await expect(readXlsx(Buffer.from('not a spreadsheet at all, just text'))).rejects.toThrow(
			/not a zip file/,
		);
	});
});
