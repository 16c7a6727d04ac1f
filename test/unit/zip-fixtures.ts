// Repacks real .xlsx files with other sheet contents, for the spreadsheet bound tests.
import { deflateRawSync, inflateRawSync } from 'node:zlib';

import { buildXlsx } from '../../nodes/PaymentGateway/spreadsheet/xlsx';
import { readCentralDirectory } from '../../nodes/PaymentGateway/spreadsheet/zip';

export interface Part {
	name: string;
	data: Buffer;
	/** What the directory claims, when it lies. */
	statedSize?: number;
}

/** A plain zip writer (deflate, no data descriptors), enough to repack an .xlsx. */
function zip(parts: Part[]): Buffer {
	const locals: Buffer[] = [];
	const centrals: Buffer[] = [];
	let offset = 0;
	for (const part of parts) {
		const name = Buffer.from(part.name, 'utf8');
		const packed = deflateRawSync(part.data);
		const size = part.statedSize ?? part.data.length;
		const local = Buffer.alloc(30);
		local.writeUInt32LE(0x04034b50, 0);
		local.writeUInt16LE(20, 4);
		local.writeUInt16LE(8, 8);
		local.writeUInt32LE(packed.length, 18);
		local.writeUInt32LE(size, 22);
		local.writeUInt16LE(name.length, 26);
		const central = Buffer.alloc(46);
		central.writeUInt32LE(0x02014b50, 0);
		central.writeUInt16LE(20, 4);
		central.writeUInt16LE(20, 6);
		central.writeUInt16LE(8, 10);
		central.writeUInt32LE(packed.length, 20);
		central.writeUInt32LE(size, 24);
		central.writeUInt16LE(name.length, 28);
		central.writeUInt32LE(offset, 42);
		locals.push(local, name, packed);
		centrals.push(central, name);
		offset += 30 + name.length + packed.length;
	}
	const directory = Buffer.concat(centrals);
	const end = Buffer.alloc(22);
	end.writeUInt32LE(0x06054b50, 0);
	end.writeUInt16LE(parts.length, 8);
	end.writeUInt16LE(parts.length, 10);
	end.writeUInt32LE(directory.length, 12);
	end.writeUInt32LE(offset, 16);
	return Buffer.concat([...locals, directory, end]);
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
	return zip(parts);
}
