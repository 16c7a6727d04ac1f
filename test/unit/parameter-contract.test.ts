import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INodeProperties, INodePropertyCollection, INodePropertyOptions } from 'n8n-workflow';

import { PaymentGateway } from '../../nodes/PaymentGateway/PaymentGateway.node';
import { PaymentGatewayTrigger } from '../../nodes/PaymentGatewayTrigger/PaymentGatewayTrigger.node';

/**
 * Saved workflows store parameter names and values: every parameter that existed must keep its
 * name, type, default and option values for the operations it was shown in. New parameters and new
 * option values may be added; the recorded contract is the floor. Rewrite it on purpose only with
 * UPDATE_PARAMETER_CONTRACT=1 (additions), never to drop or change an entry.
 */
const CONTRACT = join(__dirname, 'parameter-contract.json');

type Entry = { type: string; default: unknown; options?: unknown[]; show?: unknown };

function walk(properties: INodeProperties[], prefix: string, out: Record<string, Entry>): void {
	for (const p of properties) {
		if (p.type === 'notice') continue;
		const key = `${prefix}${p.name}@${JSON.stringify(p.displayOptions?.show ?? {})}`;
		const entry: Entry = { type: p.type, default: p.default };
		const options = p.options ?? [];
		if (p.type === 'options' || p.type === 'multiOptions') {
			entry.options = (options as INodePropertyOptions[]).map((o) => o.value);
		}
		out[key] = entry;
		if (p.type === 'collection') walk(options as INodeProperties[], `${prefix}${p.name}.`, out);
		if (p.type === 'fixedCollection') {
			for (const group of options as INodePropertyCollection[]) walk(group.values, `${prefix}${p.name}.${group.name}.`, out);
		}
	}
}

function contract(): Record<string, Entry> {
	const out: Record<string, Entry> = {};
	walk(new PaymentGateway().description.properties, 'action:', out);
	walk(new PaymentGatewayTrigger().description.properties, 'trigger:', out);
	return out;
}

describe('parameter contract', () => {
	const now = contract();
	if (process.env.UPDATE_PARAMETER_CONTRACT === '1') {
		const before = JSON.parse(readFileSync(CONTRACT, 'utf8')) as Record<string, Entry>;
		writeFileSync(CONTRACT, JSON.stringify({ ...now, ...before }, null, '\t') + '\n');
	}
	const recorded = JSON.parse(readFileSync(CONTRACT, 'utf8')) as Record<string, Entry>;

	it('records parameters', () => expect(Object.keys(recorded).length).toBeGreaterThan(200));

	it.each(Object.keys(recorded))('%s keeps its name, type, default and values', (key) => {
		const was = recorded[key];
		const is = now[key];
		expect(is).toBeDefined();
		expect({ type: is.type, default: is.default }).toEqual({ type: was.type, default: was.default });
		if (was.options) expect(is.options).toEqual(expect.arrayContaining(was.options));
	});
});
