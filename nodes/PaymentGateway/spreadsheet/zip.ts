/**
 * Bounds an .xlsx file (a zip) before exceljs opens it. The 2 MB upload limit counts compressed
 * bytes, and sheet XML packs 100 times and more: a small file can unpack to hundreds of MB and
 * hold the event loop for many seconds. The central directory gives each part's unpacked size; the
 * parts are then inflated as a stream, which stops at the bound whatever the directory claims, and
 * the worksheets' rows are counted on the way.
 */

/** Far above a 500-row payout sheet (about 0.3 MB) or any real payment link sheet. */
export const MAX_UNPACKED_BYTES = 24 * 1024 * 1024;
export const MAX_SHEET_ROWS = 30000;
const MAX_ENTRIES = 2000;

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

export interface ZipEntry {
	name: string;
	method: number;
	compressedSize: number;
	uncompressedSize: number;
	localOffset: number;
}

const MB = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

function fail(reason: string): never {
	throw new Error(`The spreadsheet is refused before reading: ${reason}`);
}

function endOfDirectory(file: Buffer): number {
	const stop = Math.max(0, file.length - 22 - 0xffff);
	for (let at = file.length - 22; at >= stop; at--) {
		if (file.readUInt32LE(at) === EOCD) return at;
	}
	return fail('it is not a zip file (.xlsx files are zip archives)');
}

/** The entries of the zip's central directory, with their stated sizes. */
export function readCentralDirectory(file: Buffer): ZipEntry[] {
	if (file.length < 22) fail('it is not a zip file (.xlsx files are zip archives)');
	const end = endOfDirectory(file);
	const count = file.readUInt16LE(end + 10);
	const offset = file.readUInt32LE(end + 16);
	if (count === 0xffff || offset === 0xffffffff)
		fail('it is a ZIP64 archive, which no spreadsheet of this size needs');
	if (count > MAX_ENTRIES) fail(`it has ${count} parts, more than ${MAX_ENTRIES}`);
	const entries: ZipEntry[] = [];
	let at = offset;
	for (let i = 0; i < count; i++) {
		if (at + 46 > file.length || file.readUInt32LE(at) !== CENTRAL)
			fail('its zip directory is damaged');
		const nameLength = file.readUInt16LE(at + 28);
		const entry: ZipEntry = {
			method: file.readUInt16LE(at + 10),
			compressedSize: file.readUInt32LE(at + 20),
			uncompressedSize: file.readUInt32LE(at + 24),
			localOffset: file.readUInt32LE(at + 42),
			name: file.toString('utf8', at + 46, at + 46 + nameLength),
		};
		entries.push(entry);
		at += 46 + nameLength + file.readUInt16LE(at + 30) + file.readUInt16LE(at + 32);
	}
	return entries;
}

function entryData(file: Buffer, entry: ZipEntry): Buffer {
	const at = entry.localOffset;
	if (at + 30 > file.length || file.readUInt32LE(at) !== LOCAL)
		fail(`its part ${entry.name} is damaged`);
	const start = at + 30 + file.readUInt16LE(at + 26) + file.readUInt16LE(at + 28);
	if (start + entry.compressedSize > file.length) fail(`its part ${entry.name} is cut short`);
	return file.subarray(start, start + entry.compressedSize);
}

const ROW_TAG = /<(?:\w+:)?row[\s>/]/g;

/** Inflates one part as a stream within `budget` bytes; returns its size and its row tags. */
async function scanEntry(file: Buffer, entry: ZipEntry, budget: number, countRows: boolean) {
	const data = entryData(file, entry);
	if (entry.method !== 0 && entry.method !== 8)
		fail(`its part ${entry.name} uses an unknown compression`);
	const source = new Blob([new Uint8Array(data)]).stream();
	const stream =
		entry.method === 8 ? source.pipeThrough(new DecompressionStream('deflate-raw')) : source;
	const reader = stream.getReader();
	const decoder = new TextDecoder();
	let size = 0;
	let rows = 0;
	let tail = '';
	for (;;) {
		const { done, value } = await reader.read();
		if (done) break;
		size += value.byteLength;
		if (size > budget || size > entry.uncompressedSize) {
			await reader.cancel();
			return { size, rows, overrun: true };
		}
		if (countRows) {
			const text = tail + decoder.decode(value, { stream: true });
			// Tags wholly inside the kept tail were counted with the previous chunk.
			for (const match of text.matchAll(ROW_TAG))
				if (match.index + match[0].length > tail.length) rows++;
			tail = text.slice(-16);
			if (rows > MAX_SHEET_ROWS) {
				await reader.cancel();
				break;
			}
		}
	}
	return { size, rows, overrun: false };
}

/**
 * Throws a clear error when the .xlsx unpacks past MAX_UNPACKED_BYTES or a worksheet holds more
 * than MAX_SHEET_ROWS rows; nothing is parsed by exceljs before this passes.
 */
export async function assertXlsxBounds(file: Buffer): Promise<void> {
	const entries = readCentralDirectory(file);
	const stated = entries.reduce((sum, entry) => sum + entry.uncompressedSize, 0);
	if (stated > MAX_UNPACKED_BYTES) {
		fail(
			`it unpacks to ${MB(stated)}, more than the ${MB(MAX_UNPACKED_BYTES)} allowed (a 500-row sheet needs well under 1 MB)`,
		);
	}
	let total = 0;
	for (const entry of entries) {
		if (entry.name.endsWith('/')) continue;
		const isSheet = /^xl\/worksheets\/[^/]+\.xml$/i.test(entry.name);
		const scan = await scanEntry(file, entry, MAX_UNPACKED_BYTES - total, isSheet);
		if (scan.overrun) {
			fail(
				`its part ${entry.name} unpacks to more than its zip directory states or than the ${MB(MAX_UNPACKED_BYTES)} allowed`,
			);
		}
		total += scan.size;
		if (scan.rows > MAX_SHEET_ROWS) {
			fail(`its sheet ${entry.name} has more than the ${MAX_SHEET_ROWS} rows allowed`);
		}
	}
}
