import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

import { anchorOf, headingOf, operations } from './operations-doc';

// Relative links and anchors in README.md and docs/*.md resolve; the nodes' codex and the
// credentials' documentation URLs point at pages and anchors that exist.
const root = path.resolve(__dirname, '../..');
const REPOSITORY_DOCS =
	'https://github.com/n8n-nodes-payment-gateway/n8n-nodes-payment-gateway/blob/main/';

const markdownFiles = [
	'README.md',
	...readdirSync(path.join(root, 'docs'))
		.filter((name) => name.endsWith('.md'))
		.map((name) => `docs/${name}`),
];

/** GitHub's heading anchors of a Markdown file (duplicates get -1, -2…); code blocks skipped. */
export function anchorsOf(text: string): Set<string> {
	const anchors = new Set<string>();
	const counts = new Map<string, number>();
	let inCode = false;
	for (const line of text.split('\n')) {
		if (/^\s*(```|~~~)/.test(line)) inCode = !inCode;
		const heading = !inCode && /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
		if (!heading) continue;
		const plain = heading[1]
			.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
			.replace(/[`*_]/g, (c) => (c === '_' ? '_' : ''));
		const base = anchorOf(plain);
		const n = counts.get(base) ?? 0;
		counts.set(base, n + 1);
		anchors.add(n === 0 ? base : `${base}-${n}`);
	}
	return anchors;
}

/** Links of a Markdown file: [text](target) and <a href>, outside code blocks and code spans. */
export function linksOf(text: string): string[] {
	const links: string[] = [];
	let inCode = false;
	for (const line of text.split('\n')) {
		if (/^\s*(```|~~~)/.test(line)) {
			inCode = !inCode;
			continue;
		}
		if (inCode) continue;
		const withoutCode = line.replace(/`[^`]*`/g, '');
		for (const m of withoutCode.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) links.push(m[1]);
	}
	return links;
}

function broken(fromFile: string, target: string): string | undefined {
	if (/^(https?:|mailto:)/.test(target)) return undefined;
	const [file, anchor] = target.split('#') as [string, string | undefined];
	const resolved = file
		? path.resolve(path.dirname(path.join(root, fromFile)), decodeURI(file))
		: path.join(root, fromFile);
	if (!resolved.startsWith(root)) return `${target}: outside the repository`;
	if (!existsSync(resolved)) return `${target}: no such file`;
	if (anchor === undefined) return undefined;
	if (statSync(resolved).isDirectory() || !resolved.endsWith('.md'))
		return `${target}: anchor on a non-Markdown target`;
	return anchorsOf(readFileSync(resolved, 'utf8')).has(anchor)
		? undefined
		: `${target}: no heading #${anchor}`;
}

function repositoryUrlProblem(url: string): string | undefined {
	if (!url.startsWith(REPOSITORY_DOCS)) return `${url}: not a page of this repository's docs`;
	return broken('README.md', url.slice(REPOSITORY_DOCS.length));
}

describe('documentation links', () => {
	test.each(markdownFiles)('%s: relative links and anchors resolve', (file) => {
		const text = readFileSync(path.join(root, file), 'utf8');
		const problems = linksOf(text)
			.map((target) => broken(file, target))
			.filter(Boolean);
		expect(problems).toEqual([]);
	});

	test('the checker finds a broken file, a broken anchor and a good anchor', () => {
		expect(broken('README.md', 'docs/nope.md')).toMatch(/no such file/);
		expect(broken('README.md', 'docs/operations.md#nope')).toMatch(/no heading/);
		expect(broken('README.md', 'docs/operations.md#order-create-payment')).toBeUndefined();
		expect(linksOf('see `[x](nope.md)` and [y](docs/README.md)')).toEqual(['docs/README.md']);
	});

	test('every operation has its heading in docs/operations.md', () => {
		const anchors = anchorsOf(readFileSync(path.join(root, 'docs/operations.md'), 'utf8'));
		const missing = operations()
			.map((op) => anchorOf(headingOf(op)))
			.filter((anchor) => !anchors.has(anchor));
		expect(missing).toEqual([]);
		expect(anchors.has('payment-gateway-trigger')).toBe(true);
	});
});

describe('codex and credential documentation URLs', () => {
	const codex = (file: string) =>
		JSON.parse(readFileSync(path.join(root, file), 'utf8')) as {
			resources: Record<string, Array<{ url: string }>>;
		};
	const action = codex('nodes/PaymentGateway/PaymentGateway.node.json');
	const trigger = codex('nodes/PaymentGatewayTrigger/PaymentGatewayTrigger.node.json');

	test('point at pages and anchors of docs/', () => {
		const urls = [action, trigger].flatMap((c) =>
			Object.values(c.resources)
				.flat()
				.map((r) => r.url),
		);
		expect(urls.map(repositoryUrlProblem).filter(Boolean)).toEqual([]);
	});

	test('the action node links every operation, the operation reference first', () => {
		const urls = action.resources.primaryDocumentation.map((r) => r.url);
		expect(urls[0]).toBe(`${REPOSITORY_DOCS}docs/operations.md`);
		const expected = operations().map(
			(op) => `${REPOSITORY_DOCS}docs/operations.md#${anchorOf(headingOf(op))}`,
		);
		expect(urls.slice(1).sort()).toEqual(expected.sort());
	});

	test('every credential links its own section of docs/credentials.md', () => {
		const dir = path.join(root, 'credentials');
		const files = readdirSync(dir).filter((name) => name.endsWith('.credentials.ts'));
		expect(files.length).toBeGreaterThan(0);
		for (const name of files) {
			const url = /documentationUrl\s*=\s*'([^']+)'/.exec(
				readFileSync(path.join(dir, name), 'utf8'),
			)?.[1];
			expect({
				name,
				url: url && url.startsWith(`${REPOSITORY_DOCS}docs/credentials.md#`),
			}).toEqual({ name, url: true });
			expect({ name, problem: repositoryUrlProblem(url as string) }).toEqual({
				name,
				problem: undefined,
			});
		}
	});
});
