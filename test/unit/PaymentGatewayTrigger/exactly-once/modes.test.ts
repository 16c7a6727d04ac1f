// The trigger's exactly-once mode follows from what this n8n offers, is named in n8n's log once,
// and a changed n8n is answered 503 with the capability and release named, never run unchecked.
import { EventEmitter } from 'node:events';

import type { IWebhookFunctions } from 'n8n-workflow';

import { N8nInternalsError } from '../../../../nodes/n8n-internals';
import { reportLine } from '../../../../nodes/n8n-internals/report';
import { judgeDelivery } from '../../../../nodes/PaymentGatewayTrigger/exactly-once';
import { acceptingRows, fakeDoor } from '../../n8n-internals/fake-door';

const changedIn = (capability: string, detail: string) =>
	new N8nInternalsError(capability, 'changed', 'n8n 9.9.9', detail);
const carries = async () => false;
const rows = acceptingRows;
const list = { checkAndRecord: async (keys: string[]) => new Set(keys), remove: async () => {} };
const redis = { prefix: 'n8n', ready: async () => {}, eval: async () => 'taken' };

describe("the mode named in n8n's log", () => {
	test.each([
		[{ queueRedis: redis, executionCheck: { carries } }, 'Redis claim + execution check'],
		[{ queueRedis: redis }, 'Redis claim without execution check: a delivery whose receiver'],
		[
			{ processedRows: rows, executionCheck: { carries } },
			'memory + database rows + execution check',
		],
		[{ processedList: list }, "memory + n8n's processed-data list"],
		[{}, 'memory only: duplicates possible after a restart'],
		[{ queueRedis: changedIn('queue Redis', 'x') }, 'none: every delivery answered 503'],
	])('%#: %s', async (given, mode) => {
		const line = await reportLine(fakeDoor(given as Parameters<typeof fakeDoor>[0]));
		expect(line).toMatch(
			/^Payment Gateway nodes on n8n 9\.9\.9: exactly-once mode of the trigger: /,
		);
		expect(line).toContain(`exactly-once mode of the trigger: ${mode}`);
		expect(line).toMatch(
			/n8n internals: queue Redis: .*; execution check: .*; resume engine: .*; time-out look: .*; execution custom data: /,
		);
		expect(line.split('\n')).toHaveLength(1);
	});

	test('a changed capability is named with its error in the line', async () => {
		const line = await reportLine(
			fakeDoor({ processedRows: changedIn('database rows', 'table has no context') }),
		);
		expect(line).toContain('database rows: CHANGED (n8n 9.9.9 is not what');
		expect(line).toContain('table has no context');
	});
});

describe('the trigger with capabilities absent or changed', () => {
	const warnings: string[] = [];
	let workflow = 0;
	const delivery = async (door: ReturnType<typeof fakeDoor>, key: string, answer = 200) => {
		const response = Object.assign(new EventEmitter(), { headersSent: false, statusCode: 200 });
		const ctx = {
			getNode: () => ({ id: 'node-1', name: 'Trigger' }),
			getWorkflow: () => ({ id: `wf-modes-${workflow}` }),
			getResponseObject: () => response,
			logger: { warn: (m: string) => warnings.push(m), info: () => {}, error: () => {} },
		} as unknown as IWebhookFunctions;
		const verdict = await judgeDelivery(ctx, key, { duplicateWindowMinutes: 1440 }, door);
		if (verdict.run) {
			response.statusCode = answer;
			response.emit('finish');
			return 'run';
		}
		return verdict.duplicate ? 'duplicate' : verdict.message;
	};
	beforeEach(() => {
		workflow += 1;
		warnings.length = 0;
	});

	test('nothing offered (memory only): the first runs, a copy is dropped, an error answer is forgotten', async () => {
		const door = fakeDoor({});
		expect(await delivery(door, 'a')).toBe('run');
		expect(await delivery(door, 'a')).toBe('duplicate');
		expect(await delivery(door, 'b', 500)).toBe('run');
		expect(await delivery(door, 'b')).toBe('run');
	});

	test("no rows but n8n's list: the list decides after memory", async () => {
		const recorded: string[] = [];
		const door = fakeDoor({
			processedList: {
				checkAndRecord: async (keys) => {
					const fresh = keys.filter((k) => !recorded.includes(k));
					recorded.push(...fresh);
					return new Set(fresh);
				},
				remove: async () => {},
			},
		});
		expect(await delivery(door, 'a')).toBe('run');
		expect(recorded).toEqual(['a']);
	});

	test('queue Redis changed: 503 naming the capability and release; never run', async () => {
		const door = fakeDoor({ queueRedis: changedIn('queue Redis', 'queue.bull.redis.host') });
		const answer = await delivery(door, 'a');
		expect(answer).toMatch(
			/deliver it again .*n8n 9\.9\.9 .*"queue Redis".*queue\.bull\.redis\.host/,
		);
		expect(answer).not.toMatch(/could not be reached/);
		expect(warnings.join()).toContain('queue.bull.redis.host');
	});

	test('rows changed: 503 naming them, and memory forgets the key (the retry is judged again)', async () => {
		const door = fakeDoor({ processedRows: changedIn('database rows', 'table has no context') });
		expect(await delivery(door, 'a')).toMatch(/recorded in n8n's database.*table has no context/);
		expect(await delivery(door, 'a')).toMatch(/table has no context/);
		expect(await delivery(fakeDoor({}), 'a')).toBe('run');
	});
});
