// Repacks real .xlsx files with other sheet contents, for the spreadsheet bound tests.
import { inflateRawSync } from 'node:zlib';

import { zipParts } from '../../../../nodes/PaymentGateway/spreadsheet/write';
import { buildXlsx } from '../../../../nodes/PaymentGateway/spreadsheet/xlsx';
import { readCentralDirectory } from '../../../../nodes/PaymentGateway/spreadsheet/zip';

export interface Part {
	name: string;
	data: Buffer;
	/** What the directory claims, when it lies. */
	statedSize?: number;
}

/** The parts zipped by the package's writer; where a part's stated size lies, it is patched in. */
async function zip(parts: Part[]): Promise<Buffer> {
	const file = await zipParts(parts.map((part) => [part.name, part.data]));
	// The central directory's offset, from the end record; its entries have no extra fields.
	let at = file.readUInt32LE(file.length - 22 + 16);
	for (const part of parts) {
		if (part.statedSize !== undefined) {
			file.writeUInt32LE(part.statedSize, at + 24);
			file.writeUInt32LE(part.statedSize, file.readUInt32LE(at + 42) + 22);
		}
		at += 46 + file.readUInt16LE(at + 28);
	}
	return file;
}

/** The parts of a real .xlsx, unpacked. */
function unzip(file: Buffer): Part[] {
	return readCentralDirectory(file).map((entry) => {
		const at = entry.localOffset;
		const start = at + 30 + file.readUInt16LE(at + 26) + file.readUInt16LE(at + 28);
		const raw = file.subarray(start, start + entry.compressedSize);
		return { name: entry.name, data: entry.method === 8 ? inflateRawSync(raw) : Buffer.from(raw) };
	});
}

export const SHEET = 'xl/worksheets/sheet1.xml';

/** A real workbook whose sheet is replaced by `rows` rows of the given cell text. */
export async function workbookWithRows(
	rows: number,
	cellText = 'x',
	statedSize?: number,
): Promise<Buffer> {
	const parts = unzip(await buildXlsx('Payouts', ['Name'], [['seed']]));
	const body = Array.from(
		{ length: rows },
		(_, i) =>
			`<row r="${i + 2}"><c r="A${i + 2}" t="inlineStr"><is><t>${cellText}</t></is></c></row>`,
	).join('');
	const sheet = parts.find((part) => part.name === SHEET)!;
	const xml = sheet.data.toString('utf8');
	sheet.data = Buffer.from(
		xml.replace(
			/<sheetData>[\s\S]*<\/sheetData>/,
			`<sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>Name</t></is></c></row>${body}</sheetData>`,
		),
	);
	sheet.statedSize = statedSize;
	return await zip(parts);
}
