import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INodeProperties, INodePropertyCollection, INodePropertyOptions } from 'n8n-workflow';

import { PaymentGateway } from '../../nodes/PaymentGateway/PaymentGateway.node';
import { PaymentGatewayTrigger } from '../../nodes/PaymentGatewayTrigger/PaymentGatewayTrigger.node';
import { PaymentGatewayPollTrigger } from '../../nodes/PaymentGatewayPollTrigger/PaymentGatewayPollTrigger.node';
import { PaymentGatewayPayoutTrigger } from '../../nodes/PaymentGatewayPayoutTrigger/PaymentGatewayPayoutTrigger.node';

/**
 * Saved workflows store parameter names and values: every parameter that existed must keep its
 * name, type, default and option values for the operations it was shown in, in the node version
 * the workflows were saved with (versions 1, 2 and 3 of the action node; a later version may
 * change what new nodes get). New parameters and new option values may be added; the recorded
 * contract is the floor. Rewrite it on purpose only with UPDATE_PARAMETER_CONTRACT=1 (additions),
 * never to drop or change an entry. Version-1 keys have no prefix (they were recorded first);
 * version-2 keys start with `v2:`, version-3 keys with `v3:`.
 */
const CONTRACT = join(__dirname, 'parameter-contract.json');

type Entry = { type: string; default: unknown; options?: unknown[]; show?: unknown };

type VersionCondition = number | { _cnd?: { gte?: number; lte?: number; eq?: number } };

/** Whether one `@version` condition holds for a version (a number, or n8n's `_cnd` form). */
function holds(condition: VersionCondition, version: number): boolean {
	if (typeof condition === 'number') return condition === version;
	const c = condition._cnd ?? {};
	return (
		(c.gte === undefined || version >= c.gte) &&
		(c.lte === undefined || version <= c.lte) &&
		(c.eq === undefined || version === c.eq)
	);
}

/** Whether a property is shown in a given version of its node. */
function inVersion(p: INodeProperties, version: number): boolean {
	const shown = p.displayOptions?.show?.['@version'] as VersionCondition[] | undefined;
	const hidden = (p.displayOptions?.hide?.['@version'] ?? []) as VersionCondition[];
	return (
		(shown === undefined || shown.some((c) => holds(c, version))) &&
		!hidden.some((c) => holds(c, version))
	);
}

/** A property's conditions without the node version: a version-1 property keeps its key. */
function showWithoutVersion(p: INodeProperties): unknown {
	const { '@version': _version, ...show } = p.displayOptions?.show ?? {};
	return show;
}

function walk(
	properties: INodeProperties[],
	prefix: string,
	out: Record<string, Entry>,
	version = 1,
): void {
	for (const p of properties) {
		if (p.type === 'notice' || !inVersion(p, version)) continue;
		const key = `${prefix}${p.name}@${JSON.stringify(showWithoutVersion(p))}`;
		const entry: Entry = { type: p.type, default: p.default };
		const options = p.options ?? [];
		if (p.type === 'options' || p.type === 'multiOptions') {
			entry.options = (options as INodePropertyOptions[]).map((o) => o.value);
		}
		out[key] = entry;
		if (p.type === 'collection')
			walk(options as INodeProperties[], `${prefix}${p.name}.`, out, version);
		if (p.type === 'fixedCollection') {
			for (const group of options as INodePropertyCollection[])
				walk(group.values, `${prefix}${p.name}.${group.name}.`, out, version);
		}
	}
}

function contract(): Record<string, Entry> {
	const out: Record<string, Entry> = {};
	const action = new PaymentGateway().description.properties;
	walk(action, 'action:', out);
	walk(action, 'v2:action:', out, 2);
	walk(action, 'v3:action:', out, 3);
	walk(new PaymentGatewayTrigger().description.properties, 'trigger:', out);
	walk(new PaymentGatewayPollTrigger().description.properties, 'pollTrigger:', out);
	walk(new PaymentGatewayPayoutTrigger().description.properties, 'payoutTrigger:', out);
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
		expect({ type: is.type, default: is.default }).toEqual({
			type: was.type,
			default: was.default,
		});
		if (was.options) expect(is.options).toEqual(expect.arrayContaining(was.options));
	});
});
