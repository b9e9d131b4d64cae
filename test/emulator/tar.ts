/**
 * A tar writer and reader as tar-stream (grist-core's library) behaves for attachment archives:
 * ustar headers with the fields tar-stream fills, data padded to 512 bytes, two zero blocks at
 * the end; the reader fails with tar-stream's messages (`Unexpected end of data` for a file cut
 * short, `Invalid tar header…` for a block whose checksum is wrong).
 */

const BLOCK = 512;

function octal(n: number, width: number): string {
	return n.toString(8).padStart(width, '0');
}

function header(name: string, size: number, mtime: Date): Buffer {
	const h = Buffer.alloc(BLOCK);
	h.write(name, 0, 100, 'utf8');
	h.write(`${octal(0o644, 6)} \0`, 100, 'ascii');
	h.write(`${octal(0, 6)} \0`, 108, 'ascii');
	h.write(`${octal(0, 6)} \0`, 116, 'ascii');
	h.write(`${octal(size, 11)} `, 124, 'ascii');
	h.write(`${octal(Math.floor(mtime.getTime() / 1000), 11)} `, 136, 'ascii');
	h.write('        ', 148, 'ascii'); // the checksum counts its own field as spaces
	h.write('0', 156, 'ascii');
	h.write('ustar\x0000', 257, 'ascii');
	h.write(`${octal(0, 6)} \0`, 329, 'ascii');
	h.write(`${octal(0, 6)} \0`, 337, 'ascii');
	let sum = 0;
	for (const b of h) sum += b;
	h.write(`${octal(sum, 6)}\0 `, 148, 'ascii');
	return h;
}

export interface TarEntry {
	name: string;
	data: Buffer;
}

/** A tar of `entries`, in order. */
export function tarFiles(entries: TarEntry[], mtime = new Date()): Buffer {
	const parts: Buffer[] = [];
	for (const e of entries) {
		parts.push(header(e.name, e.data.length, mtime), e.data);
		const pad = (BLOCK - (e.data.length % BLOCK)) % BLOCK;
		if (pad) parts.push(Buffer.alloc(pad));
	}
	parts.push(Buffer.alloc(BLOCK * 2));
	return Buffer.concat(parts);
}

function field(h: Buffer, start: number, length: number): string {
	const raw = h.subarray(start, start + length);
	const end = raw.indexOf(0);
	return raw.subarray(0, end === -1 ? length : end).toString('utf8');
}

/** The files of a tar (`ustar` prefix joined to the name); throws tar-stream's messages. */
export function untarFiles(tar: Buffer): TarEntry[] {
	const out: TarEntry[] = [];
	let at = 0;
	while (at < tar.length) {
		if (tar.length - at < BLOCK) throw new Error('Unexpected end of data');
		const h = tar.subarray(at, at + BLOCK);
		at += BLOCK;
		if (h.every((b) => b === 0)) break;
		let sum = 0;
		for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : h[i];
		if (parseInt(field(h, 148, 8).trim(), 8) !== sum)
			throw new Error(
				'Invalid tar header. Maybe the tar is corrupted or it needs to be gunzipped?',
			);
		const size = parseInt(field(h, 124, 12).trim() || '0', 8);
		const prefix = field(h, 257, 6) === 'ustar' ? field(h, 345, 155) : '';
		const name = prefix ? `${prefix}/${field(h, 0, 100)}` : field(h, 0, 100);
		if (tar.length - at < size) throw new Error('Unexpected end of data');
		const type = field(h, 156, 1) || '0';
		if (type === '0') out.push({ name, data: Buffer.from(tar.subarray(at, at + size)) });
		at += Math.ceil(size / BLOCK) * BLOCK;
		if (at > tar.length) throw new Error('Unexpected end of data');
	}
	return out;
}
