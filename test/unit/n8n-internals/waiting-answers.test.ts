// n8n's answers at a waiting execution's address, as n8n 1.123.x and 2.41.1 give them
// (WaitingWebhooks.executeWebhook, serialised by ResponseHelper.sendErrorResponse).
import { waitingAnswer } from '../../../nodes/n8n-internals';

const error = (code: number, message: string) => ({ code, message });

describe("n8n's answers of a waiting execution", () => {
	it.each([
		[200, { received: true, resumed: true }, 'taken'],
		[200, { received: true, resumed: false }, 'taken'],
		[409, error(409, 'The execution "41" is running already.'), 'running'],
		[409, error(409, 'The execution "41 has finished already.'), 'ended'],
		[409, error(409, 'The execution "41" has finished with error.'), 'ended'],
		[404, error(404, 'The execution "41" does not exist.'), 'ended'],
		[
			404,
			error(
				404,
				'The workflow for execution "41" does not contain a waiting webhook with a matching path/method.',
			),
			'ended',
		],
		[401, { error: 'Invalid token' }, 'refused'],
	])('%p %j → %p', (status, body, expected) => {
		expect(waitingAnswer(status, body)).toBe(expected);
	});

	it('anything not shaped as n8n answers is unknown, never taken for ended', () => {
		for (const [status, body] of [
			[404, '<html>Not Found</html>'],
			[404, { message: 'The execution "41" does not exist.' }],
			[409, { message: 'The execution "41 has finished already.' }],
			[409, error(409, 'The execution "41" was stopped by someone.')],
			[409, error(404, 'The execution "41" is running already.')],
			[502, error(502, 'Bad gateway')],
			[500, undefined],
		] as Array<[number, unknown]>)
			expect(waitingAnswer(status, body)).toBe('unknown');
	});
});
