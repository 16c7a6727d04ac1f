import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { allKeys, blockKeys, updateDoc } from './operations-doc';

// docs/operations.md's parameter tables must match the nodes. Regenerate with
// UPDATE_DOCS=1 npx jest test/docs/operations-doc.test.ts
const file = path.resolve(__dirname, '../../docs/operations.md');

describe('docs/operations.md', () => {
	const current = readFileSync(file, 'utf8');
	const regenerated = updateDoc(current);
	if (process.env.UPDATE_DOCS === '1' && regenerated !== current) writeFileSync(file, regenerated);
	const text = process.env.UPDATE_DOCS === '1' ? regenerated : current;

	test('has one parameter table per operation and one for the trigger', () => {
		expect([...blockKeys(text)].sort()).toEqual([...allKeys()].sort());
	});

	test('parameter tables match the nodes (UPDATE_DOCS=1 regenerates them)', () => {
		expect(text).toBe(regenerated);
	});
});
