import { createHash } from 'node:crypto';
import { deflateSync, inflateSync } from 'node:zlib';

// A minimal PNG codec: enough to hand out a real image as a subscription plan's qr_code.

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const CRC_TABLE = (() => {
	const table = new Uint32Array(256);
	for (let n = 0; n < 256; n++) {
		let c = n;
		for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
		table[n] = c >>> 0;
	}
	return table;
})();

/** CRC-32 (ISO-HDLC) as PNG chunks use it. */
export function crc32(data: Buffer): number {
	let c = 0xffffffff;
	for (const byte of data) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
	return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
	const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
	const length = Buffer.alloc(4);
	length.writeUInt32BE(data.length);
	const crc = Buffer.alloc(4);
	crc.writeUInt32BE(crc32(typed));
	return Buffer.concat([length, typed, crc]);
}

/** A 1-bit greyscale PNG; `dark(x, y)` true paints black. */
export function encodePng(width: number, height: number, dark: (x: number, y: number) => boolean) {
	const header = Buffer.alloc(13);
	header.writeUInt32BE(width, 0);
	header.writeUInt32BE(height, 4);
	// Bit depth 1, colour type 0 (greyscale), compression 0, filter 0, no interlace.
	header.set([1, 0, 0, 0, 0], 8);
	const stride = Math.ceil(width / 8);
	const raw = Buffer.alloc((stride + 1) * height); // each row: filter byte 0, then packed bits
	for (let y = 0; y < height; y++) {
		for (let x = 0; x < width; x++) {
			// 1 = white in greyscale, so set the bit for light pixels.
			if (!dark(x, y)) raw[y * (stride + 1) + 1 + (x >> 3)] |= 0x80 >> (x & 7);
		}
	}
	return Buffer.concat([
		PNG_SIGNATURE,
		chunk('IHDR', header),
		chunk('IDAT', deflateSync(raw)),
		chunk('IEND', Buffer.alloc(0)),
	]);
}

/**
 * A QR-like picture of `text`: 29×29 modules (the size of a version 3 QR code) with the three
 * finder squares and a data area from SHA-256 of the text, 4 pixels a module, 4-module margin.
 * It is not a scannable QR code: the sandbox only promises a real PNG tied to the link.
 */
export function qrLikePng(text: string): Buffer {
	const modules = 29;
	const margin = 4;
	const scale = 4;
	let bits = Buffer.alloc(0);
	for (let i = 0; bits.length * 8 < modules * modules; i++) {
		bits = Buffer.concat([bits, createHash('sha256').update(`${i}:${text}`).digest()]);
	}
	const finder = (x: number, y: number): boolean | undefined => {
		for (const [fx, fy] of [
			[0, 0],
			[modules - 7, 0],
			[0, modules - 7],
		]) {
			const [dx, dy] = [x - fx, y - fy];
			if (dx < -1 || dy < -1 || dx > 7 || dy > 7) continue;
			if (dx < 0 || dy < 0 || dx > 6 || dy > 6) return false; // white separator
			const ring = Math.max(Math.abs(dx - 3), Math.abs(dy - 3));
			return ring !== 2;
		}
		return undefined;
	};
	const size = (modules + 2 * margin) * scale;
	return encodePng(size, size, (px, py) => {
		const [x, y] = [Math.floor(px / scale) - margin, Math.floor(py / scale) - margin];
		if (x < 0 || y < 0 || x >= modules || y >= modules) return false;
		const fixed = finder(x, y);
		if (fixed !== undefined) return fixed;
		const bit = y * modules + x;
		return ((bits[bit >> 3] >> (bit & 7)) & 1) === 1;
	});
}

export interface DecodedPng {
	width: number;
	height: number;
	bitDepth: number;
	colorType: number;
	/** Chunk types in file order. */
	chunks: string[];
	/** The inflated IDAT data (filter bytes included). */
	raw: Buffer;
}

/** Reads and checks a PNG (signature, chunk CRCs, IHDR first, IEND last); throws on faults. */
export function decodePng(png: Buffer): DecodedPng {
	if (!png.subarray(0, 8).equals(PNG_SIGNATURE)) throw new Error('not a PNG: bad signature');
	const chunks: string[] = [];
	const idat: Buffer[] = [];
	let header: Buffer | undefined;
	let at = 8;
	while (at < png.length) {
		if (at + 12 > png.length) throw new Error('truncated chunk');
		const length = png.readUInt32BE(at);
		const typed = png.subarray(at + 4, at + 8 + length);
		if (typed.length !== length + 4 || at + 12 + length > png.length) {
			throw new Error('truncated chunk');
		}
		const type = typed.subarray(0, 4).toString('ascii');
		if (png.readUInt32BE(at + 8 + length) !== crc32(typed)) throw new Error(`bad CRC in ${type}`);
		chunks.push(type);
		if (type === 'IHDR') header = typed.subarray(4);
		if (type === 'IDAT') idat.push(typed.subarray(4));
		at += 12 + length;
	}
	if (chunks[0] !== 'IHDR' || !header || header.length !== 13) throw new Error('IHDR not first');
	if (chunks.at(-1) !== 'IEND') throw new Error('IEND not last');
	return {
		width: header.readUInt32BE(0),
		height: header.readUInt32BE(4),
		bitDepth: header[8],
		colorType: header[9],
		chunks,
		raw: inflateSync(Buffer.concat(idat)),
	};
}
