// The bulk endpoints take .xlsx files: written by ./write, read with exceljs (this package's one
// runtime dependency).
import type * as ExcelJSModule from 'exceljs';

import { writeXlsx, type CellValue } from './write';
import { assertXlsxBounds } from './zip';

// Loaded on first use only: most workflows never build or read a spreadsheet.
let excel: typeof ExcelJSModule | undefined;
async function exceljs(): Promise<typeof ExcelJSModule> {
	excel ??= await import('exceljs');
	return excel;
}

/** One sheet: a header row, then one row per record, values in header order. */
export async function buildXlsx(
	sheetName: string,
	headers: string[],
	rows: CellValue[][],
): Promise<Buffer> {
	return await writeXlsx(sheetName, [headers, ...rows]);
}

export interface SheetData {
	headers: string[];
	/** Data rows with their spreadsheet row numbers (the header is row 1); empty rows are skipped. */
	rows: Array<{ rowNumber: number; values: CellValue[] }>;
}

/** Plain values out of exceljs cells: rich text, formulas, hyperlinks and shared strings included. */
function plain(value: ExcelJSModule.CellValue): CellValue {
	if (value === null || value === undefined) return undefined;
	if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
		return value;
	if (value instanceof Date) return value;
	if (typeof value === 'object') {
		if ('richText' in value) return value.richText.map((part) => part.text).join('');
		if ('result' in value) return plain(value.result as ExcelJSModule.CellValue);
		if ('text' in value) return String(value.text);
		if ('error' in value) return String(value.error);
	}
	return String(value);
}

// Parts of a worksheet that hold no cell values: not parsed, so the workbook model stays small.
const LAYOUT_NODES = [
	'sheetPr',
	'dimension',
	'sheetViews',
	'sheetFormatPr',
	'cols',
	'autoFilter',
	'mergeCells',
	'rowBreaks',
	'hyperlinks',
	'pageMargins',
	'dataValidations',
	'pageSetup',
	'headerFooter',
	'printOptions',
	'picture',
	'drawing',
	'sheetProtection',
	'tableParts',
	'conditionalFormatting',
	'extLst',
];

/**
 * Reads the first worksheet of an .xlsx file in one pass over its rows; the workbook model is let go
 * on return, so the rows read are the one copy of the data the caller holds.
 */
export async function readXlsx(file: Buffer): Promise<SheetData> {
	await assertXlsxBounds(file);
	const workbook = new (await exceljs()).Workbook();
	await workbook.xlsx.load(file as unknown as ArrayBuffer, { ignoreNodes: LAYOUT_NODES });
	const sheet = workbook.worksheets[0];
	if (!sheet) return { headers: [], rows: [] };
	const width = Math.max(sheet.columnCount, sheet.getRow(1).cellCount);
	const read = (row: ExcelJSModule.Row) =>
		Array.from({ length: width }, (_, i) => plain(row.getCell(i + 1).value));
	const headers = read(sheet.getRow(1)).map((v) => (v === undefined ? '' : String(v).trim()));
	while (headers.length > 0 && headers[headers.length - 1] === '') headers.pop();
	const rows: SheetData['rows'] = [];
	sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
		if (rowNumber === 1) return;
		const values = read(row).slice(0, Math.max(headers.length, width));
		if (values.some((v) => v !== undefined && String(v).trim() !== ''))
			rows.push({ rowNumber, values });
	});
	return { headers, rows };
}
