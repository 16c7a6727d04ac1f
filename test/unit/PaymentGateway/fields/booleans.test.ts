import { readdirSync } from 'node:fs';
import { join } from 'node:path';

import type { INodeProperties } from 'n8n-workflow';

import { PaymentGateway } from '../../../../nodes/PaymentGateway/PaymentGateway.node';
import { readTable } from '../../../../nodes/PaymentGateway/fields/read';
import type { Field, FieldTable } from '../../../../nodes/PaymentGateway/fields/types';
import type { ItemsContext } from '../../../../nodes/PaymentGateway/helpers/context';
import { PaymentGatewayTrigger } from '../../../../nodes/PaymentGatewayTrigger/PaymentGatewayTrigger.node';
import { optionsGroup } from '../../../../nodes/PaymentGatewayTrigger/options';

/**
 * Every yes/no parameter of the nodes is a field of a table, and reads the text an expression gives
 * ("false", " True ") as the yes/no it says: a boolean read any other way took "false" as true.
 */

const ACTIONS = join(__dirname, '../../../../nodes/PaymentGateway/actions');

/** Every operation's table (versions 1-2 included where the module keeps them apart). */
function operationTables(): FieldTable[] {
	const tables: FieldTable[] = [[optionsGroup]];
	for (const resource of readdirSync(ACTIONS, { withFileTypes: true })) {
		if (!resource.isDirectory()) continue;
		for (const file of readdirSync(join(ACTIONS, resource.name))) {
			if (!file.endsWith('.operation.ts')) continue;
			// eslint-disable-next-line @typescript-eslint/no-require-imports
			const module = require(join(ACTIONS, resource.name, file)) as Record<string, unknown>;
			for (const value of Object.values(module))
				if (Array.isArray(value) && value.every((entry) => entry?.name && entry?.displayName))
					tables.push(value as FieldTable);
		}
	}
	return tables;
}

/** [path, field, table] of every boolean field: "name" or "collection.name". */
function booleanFields(): Array<[string, Field, FieldTable]> {
	const out = new Map<string, [string, Field, FieldTable]>();
	for (const table of operationTables())
		for (const entry of table) {
			if (!('group' in entry)) {
				if (entry.type === 'boolean') out.set(entry.name, [entry.name, entry, table]);
			} else if (entry.group === 'collection') {
				for (const field of entry.fields)
					if (field.type === 'boolean')
						out.set(`${entry.name}.${field.name}`, [`${entry.name}.${field.name}`, field, table]);
			}
		}
	return [...out.values()];
}

/** Boolean properties of a description, top-level and inside collections. */
function booleanProperties(properties: INodeProperties[]): string[] {
	const paths: string[] = [];
	for (const property of properties) {
		if (property.type === 'boolean') paths.push(property.name);
		if (property.type === 'collection')
			for (const option of (property.options ?? []) as INodeProperties[])
				if (option.type === 'boolean') paths.push(`${property.name}.${option.name}`);
	}
	return paths;
}

/** A context whose only parameter is `path`, given as an expression n8n evaluates to `text`. */
function contextGiving(path: string, text: string): ItemsContext {
	const [top, inner] = path.split('.');
	const as = (value: string) => (inner ? { [inner]: value } : value);
	return {
		getNode: () => ({ name: 'Gateway', typeVersion: 3 }) as never,
		getCredentials: async () => ({}),
		helpers: {} as never,
		getInputData: () => [{ json: {} }],
		getNodeParameter: (name, _item, fallback, options) => {
			if (name !== top) return fallback;
			return options?.rawExpressions ? as(`={{ ${JSON.stringify(text)} }}`) : as(text);
		},
	};
}

describe('every yes/no parameter', () => {
	const fields = booleanFields();
	const paths = fields.map(([path]) => path);

	it('is declared in a field table', () => {
		const declared = [
			...booleanProperties(new PaymentGateway().description.properties),
			...booleanProperties(new PaymentGatewayTrigger().description.properties),
		];
		expect(declared.length).toBeGreaterThan(5);
		for (const path of declared) expect(paths).toContain(path);
	});

	describe.each(fields)('%s', (path, _field, table) => {
		it.each([
			['false', false],
			['False', false],
			[' false ', false],
			['true', true],
			['TRUE', true],
		])('reads the text %j from an expression as %s', (text, expected) => {
			const { values, violations } = readTable(contextGiving(path, text), 0, table);
			const [top, inner] = path.split('.');
			const value = inner ? (values[top] as Record<string, unknown>)[inner] : values[top];
			expect(value).toBe(expected);
			expect(violations.filter((v) => v.rule.includes('true or false'))).toEqual([]);
		});
	});
});
