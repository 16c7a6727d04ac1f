import * as core from 'n8n-core';
import type { ExecutionBaseError } from 'n8n-workflow';
import * as workflow from 'n8n-workflow';

type ErrorClass = new (...args: never[]) => Error;

function findErrorClass(name: unknown): ErrorClass | undefined {
	if (typeof name !== 'string') return undefined;
	for (const source of [workflow, core] as Array<Record<string, unknown>>) {
		const candidate = source[name];
		if (typeof candidate === 'function' && candidate.prototype instanceof Error) {
			return candidate as ErrorClass;
		}
	}
	return undefined;
}

/**
 * WorkflowExecute stores errors as `{ ...error, message, stack }`, which drops the class. Put the
 * prototype back (looked up by `name`) so tests can use instanceof and read the usual fields.
 */
export function toError(value: unknown): ExecutionBaseError | Error {
	if (value instanceof Error) return value;
	if (typeof value !== 'object' || value === null) return new Error(String(value));
	const plain = value as { name?: unknown; message?: unknown };
	const errorClass = findErrorClass(plain.name);
	const error = errorClass
		? (Object.create(errorClass.prototype) as Error)
		: new Error(typeof plain.message === 'string' ? plain.message : 'Unknown error');
	return Object.assign(error, value);
}
