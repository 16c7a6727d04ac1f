import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Workbook } from 'exceljs';

import { writeXlsx } from '../../../../nodes/PaymentGateway/spreadsheet/write';
import { readXlsx } from '../../../../nodes/PaymentGateway/spreadsheet/xlsx';

const HEADERS = Array.from({ length: 30 }, (_, i) => `Column ${i + 1}`);

describe('the .xlsx writer', () => {
	it('writes what exceljs reads back cell for cell: text, numbers, booleans, past column Z', async () => {
		const row = [
			'Ravi & Sons <Pvt> "Ltd"',
			1500.5,
			'  spaces kept  ',
			'अनुराग पटेल',
			true,
			0.01,
			'123456789012',
			...Array.from({ length: 23 }, (_, i) => `cell ${i}`),
		];
		const file = await writeXlsx('Payouts', [HEADERS, row, [], row]);
		const workbook = new Workbook();
		await workbook.xlsx.load(file as unknown as ArrayBuffer);
		const sheet = workbook.worksheets[0];
		expect(sheet.name).toBe('Payouts');
		expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(HEADERS);
		expect((sheet.getRow(2).values as unknown[]).slice(1)).toEqual(row);
		expect(sheet.getRow(3).cellCount).toBe(0);
		expect((sheet.getRow(4).values as unknown[]).slice(1)).toEqual(row);
		expect(sheet.getCell('AD2').value).toBe('cell 22');
		// The package's own reader (bounds checked first) reads it too.
		const read = await readXlsx(file);
		expect(read.headers).toEqual(HEADERS);
		expect(read.rows.map((r) => r.rowNumber)).toEqual([2, 4]);
	});

	it('leaves out what XML cannot hold and empty cells; dates as ISO text', async () => {
		const file = await writeXlsx('Sheet & Co', [
			['A', 'B', 'C', 'D'],
			['bell\u0007here', '', null, new Date('2026-11-28T00:00:00Z')],
		]);
		const workbook = new Workbook();
		await workbook.xlsx.load(file as unknown as ArrayBuffer);
		const sheet = workbook.worksheets[0];
		expect(sheet.name).toBe('Sheet & Co');
		expect(sheet.getCell('A2').value).toBe('bellhere');
		expect(sheet.getCell('B2').value).toBeNull();
		expect(sheet.getCell('C2').value).toBeNull();
		expect(sheet.getCell('D2').value).toBe('2026-11-28T00:00:00.000Z');
	});

	it('is a sound zip (every checksum right) and the same bytes for the same rows', async () => {
		const rows = [
			HEADERS,
			...Array.from({ length: 500 }, (_, r) => HEADERS.map((h) => `${h} ${r}`)),
		];
		const file = await writeXlsx('Payouts', rows);
		expect(Buffer.compare(file, await writeXlsx('Payouts', rows))).toBe(0);
		const dir = mkdtempSync(join(tmpdir(), 'xlsx-'));
		try {
			writeFileSync(join(dir, 'f.xlsx'), file);
			// Python's zipfile inflates every part and checks its CRC-32 (None: all sound).
			const check =
				'import zipfile,sys; z=zipfile.ZipFile(sys.argv[1]); print(z.testzip(), len(z.namelist()))';
			const out = execFileSync('python3', ['-c', check, join(dir, 'f.xlsx')], { encoding: 'utf8' });
			expect(out.trim()).toBe('None 7');
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});
