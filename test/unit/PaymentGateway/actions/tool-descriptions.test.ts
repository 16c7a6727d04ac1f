import type { INodeProperties } from 'n8n-workflow';

import { PaymentGateway } from '../../../../nodes/PaymentGateway/PaymentGateway.node';
import type { OperationFacts } from '../../../../nodes/PaymentGateway/actions/tool';
import { factsSentence } from '../../../../nodes/PaymentGateway/actions/tool';
import { TOOL_OPERATIONS } from '../../../../nodes/PaymentGateway/actions/tool.descriptions';
import { LEGACY_TOOL_DESCRIPTIONS } from '../../../../nodes/PaymentGateway/actions/tool.legacy';

/**
 * Each operation's tool description says what its facts say (the facts its request is sent with,
 * checked against the sandbox in test/workflows/lost-answers.test.ts), so the words cannot drift
 * from what the operation does.
 */
type Module = { toolDescription: string; facts?: OperationFacts };

const operations = Object.entries(TOOL_OPERATIONS).flatMap(([resource, ops]) =>
	Object.entries(ops as Record<string, Module>).map(
		([operation, module]) => [`${resource} > ${operation}`, resource, operation, module] as const,
	),
);

const properties = new PaymentGateway().description.properties;
const toolProperty = (resource: string, operation: string, version: 'v3' | 'legacy') =>
	properties.find((p: INodeProperties) => {
		const show = p.displayOptions?.show ?? {};
		const versions = JSON.stringify(show['@version'] ?? []);
		return (
			p.name === 'toolDescription' &&
			(show.resource as string[] | undefined)?.[0] === resource &&
			(show.operation as string[] | undefined)?.[0] === operation &&
			versions.includes(version === 'v3' ? '"gte":3' : '"lte":2')
		);
	});

describe.each(operations)('%s: the tool description', (_name, resource, operation, module) => {
	const facts = module.facts;

	const legacy = (LEGACY_TOOL_DESCRIPTIONS as Record<string, Record<string, string>>)[resource];

	if (legacy?.[operation] === undefined) {
		it('is offered to a model in every node version (an operation added after version 2)', () => {
			const own = properties.filter((p: INodeProperties) => {
				const show = p.displayOptions?.show ?? {};
				return (
					p.name === 'toolDescription' &&
					(show.resource as string[] | undefined)?.[0] === resource &&
					(show.operation as string[] | undefined)?.[0] === operation
				);
			});
			expect(own.map((p) => [p.default, p.displayOptions?.show?.['@version']])).toEqual([
				[module.toolDescription, undefined],
			]);
		});
	} else {
		it('is what new nodes (version 3) offer a model; versions 1 and 2 keep theirs', () => {
			expect(toolProperty(resource, operation, 'v3')?.default).toBe(module.toolDescription);
			expect(toolProperty(resource, operation, 'legacy')?.default).toBe(legacy[operation]);
		});
	}

	if (!facts) return;

	it('ends with the sentences its facts make', () => {
		expect(module.toolDescription.endsWith(factsSentence(facts))).toBe(true);
	});

	it('says MOVES MONEY exactly when it moves money', () => {
		const moves = facts.kind === 'write' && facts.movesMoney;
		expect(module.toolDescription.includes('MOVES MONEY')).toBe(moves);
	});

	it('says it is retried exactly when the node sends it again', () => {
		const text = module.toolDescription;
		if (facts.kind !== 'write') return;
		if (facts.retried) {
			expect(text).not.toMatch(/not retried|Never sent twice/);
			expect(text).toMatch(/sends it again by itself|Retried automatically/);
		} else {
			expect(text).toContain('Never sent twice automatically.');
		}
	});

	it('names the outcomes a lost answer ends as', () => {
		if (facts.kind !== 'write' || facts.lostAnswer === 'sameState') return;
		const outcomes = {
			repeatRefused: ['"done"'],
			check: ['"done"', '"notDone"', '"unknown"'],
			checkDoneOnly: ['"done"', '"unknown"'],
			unknown: ['"unknown"'],
		}[facts.lostAnswer];
		for (const outcome of outcomes) expect(module.toolDescription).toContain(outcome);
		// A refund not seen may still be applied: its text never offers "notDone".
		if (facts.lostAnswer === 'checkDoneOnly')
			expect(module.toolDescription).not.toContain('"notDone"');
	});
});

it('the money-moving operations are the ones declared so', () => {
	const moving = operations
		.filter(([, , , m]) => m.facts?.kind === 'write' && m.facts.movesMoney)
		.map(([name]) => name)
		.sort();
	expect(moving).toEqual([
		'order > chargeSavedCard',
		'payment > capture',
		'payment > refund',
		'payout > bulkCreate',
	]);
});
