/**
 * Writes a one-sheet .xlsx: the parts every reader needs (content types, relationships, workbook,
 * shared strings, styles, the sheet), deflated into a zip. A bulk file holds only text, numbers and
 * booleans; written directly they take about a quarter of the time exceljs takes for the same cells,
 * and a payout run builds one file per batch between its uploads (docs/performance.md).
 */
export type CellValue = string | number | boolean | Date | null | undefined;

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL = 'http://schemas.openxmlformats.org/package/2006/relationships';
const TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml';

const CONTENT_TYPES =
	`${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
	'<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
	'<Default Extension="xml" ContentType="application/xml"/>' +
	`<Override PartName="/xl/workbook.xml" ContentType="${TYPE}.sheet.main+xml"/>` +
	`<Override PartName="/xl/worksheets/sheet1.xml" ContentType="${TYPE}.worksheet+xml"/>` +
	`<Override PartName="/xl/sharedStrings.xml" ContentType="${TYPE}.sharedStrings+xml"/>` +
	`<Override PartName="/xl/styles.xml" ContentType="${TYPE}.styles+xml"/></Types>`;
const ROOT_RELS =
	`${XML_HEAD}<Relationships xmlns="${PKG_REL}"><Relationship Id="rId1" ` +
	`Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
const WORKBOOK_RELS =
	`${XML_HEAD}<Relationships xmlns="${PKG_REL}">` +
	`<Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/>` +
	`<Relationship Id="rId2" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/>` +
	`<Relationship Id="rId3" Type="${REL}/styles" Target="styles.xml"/></Relationships>`;
const STYLES =
	`${XML_HEAD}<styleSheet xmlns="${MAIN}"><fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts>` +
	'<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
	'<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
	'<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
	'<cellXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/></cellXfs>' +
	'<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>';

const workbook = (sheetName: string) =>
	`${XML_HEAD}<workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets>` +
	`<sheet name="${escapeXml(sheetName)}" sheetId="1" r:id="rId1"/></sheets></workbook>`;

// Characters XML 1.0 cannot hold at all are left out, as a spreadsheet could not show them.
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
const escapeXml = (text: string) => text.replace(NOT_XML, '').replace(/[&<>"]/g, (c) => ESCAPES[c]);

function columnName(index: number): string {
	let name = '';
	for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26))
		name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
	return name;
}

/** Dates as their ISO text: no bulk column takes a date cell (End Date is YYYY-MM-DD text). */
function cellText(value: CellValue): string | number | boolean | undefined {
	if (value === null || value === undefined || value === '') return undefined;
	if (value instanceof Date) return value.toISOString();
	if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
	return value;
}

/** The sheet's XML and its shared strings, in order of first use (as Excel writes them). */
function sheetParts(rows: CellValue[][]): { sheet: string; strings: string } {
	const index = new Map<string, number>();
	let uses = 0;
	const columns = Math.max(0, ...rows.map((row) => row.length));
	const names = Array.from({ length: columns }, (_, c) => columnName(c));
	const out: string[] = [`${XML_HEAD}<worksheet xmlns="${MAIN}"><sheetData>`];
	rows.forEach((row, r) => {
		const line = r + 1;
		out.push(`<row r="${line}">`);
		row.forEach((raw, c) => {
			const value = cellText(raw);
			if (value === undefined) return;
			const ref = `${names[c]}${line}`;
			if (typeof value === 'number') out.push(`<c r="${ref}"><v>${value}</v></c>`);
			else if (typeof value === 'boolean')
				out.push(`<c r="${ref}" t="b"><v>${value ? 1 : 0}</v></c>`);
			else {
				let at = index.get(value);
				if (at === undefined) index.set(value, (at = index.size));
				uses++;
				out.push(`<c r="${ref}" t="s"><v>${at}</v></c>`);
			}
		});
		out.push('</row>');
	});
	out.push('</sheetData></worksheet>');
	const shared = [...index.keys()].map(
		(text) => `<si><t xml:space="preserve">${escapeXml(text)}</t></si>`,
	);
	const strings = `${XML_HEAD}<sst xmlns="${MAIN}" count="${uses}" uniqueCount="${index.size}">${shared.join('')}</sst>`;
	return { sheet: out.join(''), strings };
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
	let c = n;
	for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
	return c >>> 0;
});

function crc32(data: Uint8Array): number {
	let crc = 0xffffffff;
	for (let i = 0; i < data.length; i++) crc = CRC_TABLE[(crc ^ data[i]) & 0xff] ^ (crc >>> 8);
	return (crc ^ 0xffffffff) >>> 0;
}

/** Deflated off the event loop (the web CompressionStream runs zlib on Node's thread pool). */
async function deflateRaw(data: Uint8Array): Promise<Buffer> {
	const stream = new Blob([data]).stream().pipeThrough(new CompressionStream('deflate-raw'));
	return Buffer.from(await new Response(stream).arrayBuffer());
}

/** The first day a zip can name: files built at different times stay byte for byte the same. */
const DOS_1980_01_01 = (1 << 5) | 1;

/** A zip of the parts, deflated, without data descriptors or ZIP64 (a bulk file is far smaller). */
export async function zipParts(
	parts: Array<[name: string, data: string | Buffer]>,
): Promise<Buffer> {
	const local: Buffer[] = [];
	const central: Buffer[] = [];
	let offset = 0;
	for (const [name, content] of parts) {
		const data = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
		const packed = await deflateRaw(data);
		const fileName = Buffer.from(name, 'utf8');
		// Version 2.0, UTF-8 names, deflate, a fixed date; then CRC and both sizes.
		const head = Buffer.alloc(30);
		head.writeUInt32LE(0x04034b50, 0);
		head.writeUInt16LE(20, 4);
		head.writeUInt16LE(0x0800, 6);
		head.writeUInt16LE(8, 8);
		head.writeUInt16LE(DOS_1980_01_01, 12);
		head.writeUInt32LE(crc32(data), 14);
		head.writeUInt32LE(packed.length, 18);
		head.writeUInt32LE(data.length, 22);
		head.writeUInt16LE(fileName.length, 26);
		const entry = Buffer.alloc(46);
		entry.writeUInt32LE(0x02014b50, 0);
		entry.writeUInt16LE(20, 4);
		entry.writeUInt16LE(20, 6);
		head.copy(entry, 8, 6, 30);
		entry.writeUInt32LE(offset, 42);
		local.push(head, fileName, packed);
		central.push(entry, fileName);
		offset += head.length + fileName.length + packed.length;
	}
	const directory = Buffer.concat(central);
	const end = Buffer.alloc(22);
	end.writeUInt32LE(0x06054b50, 0);
	end.writeUInt16LE(parts.length, 8);
	end.writeUInt16LE(parts.length, 10);
	end.writeUInt32LE(directory.length, 12);
	end.writeUInt32LE(offset, 16);
	return Buffer.concat([...local, directory, end]);
}

/** One sheet named `sheetName` holding `rows` as given (the first row is the header). */
export async function writeXlsx(sheetName: string, rows: CellValue[][]): Promise<Buffer> {
	const { sheet, strings } = sheetParts(rows);
	return await zipParts([
		['[Content_Types].xml', CONTENT_TYPES],
		['_rels/.rels', ROOT_RELS],
		['xl/workbook.xml', workbook(sheetName)],
		['xl/_rels/workbook.xml.rels', WORKBOOK_RELS],
		['xl/styles.xml', STYLES],
		['xl/sharedStrings.xml', strings],
		['xl/worksheets/sheet1.xml', sheet],
	]);
}
