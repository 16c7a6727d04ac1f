// Late Status's URL: built on the order side, read by the trigger (nodes/webhook/late-status.ts).
import {
	executionOf,
	LATE_STATUS_QUERY,
	lateStatusTarget,
	lateStatusUrl,
} from '../../../nodes/webhook/late-status';

const TRIGGER = 'https://n8n.example.com/webhook/abc/payment-gateway';
const RESUME = 'https://n8n.example.com/webhook-waiting/41?signature=a%2Bb&x=1';

/** The query as n8n gives it to the trigger (one value per name). */
const queryOf = (url: string) => Object.fromEntries(new URL(url).searchParams);

describe('Late Status: the order URL and its reading', () => {
	it('keeps the parameter name of the URLs given to orders in flight', () => {
		expect(LATE_STATUS_QUERY).toBe('resume');
	});

	it('what the order side builds, the trigger reads back intact', () => {
		for (const trigger of [TRIGGER, `${TRIGGER}?team=a`]) {
			const url = lateStatusUrl(trigger, RESUME);
			expect(url.startsWith(`${trigger}${trigger.includes('?') ? '&' : '?'}resume=`)).toBe(true);
			expect(lateStatusTarget(queryOf(url), TRIGGER)).toEqual({
				resumeUrl: new URL(RESUME).toString(),
			});
		}
		expect(executionOf(RESUME)).toBe('41');
	});

	it('a plain delivery carries none; one for another host or not a URL is refused', () => {
		expect(lateStatusTarget({}, TRIGGER)).toBeUndefined();
		expect(lateStatusTarget({ resume: '' }, TRIGGER)).toBeUndefined();
		for (const resume of ['https://evil.example.com/webhook-waiting/41', 'not a url']) {
			expect(lateStatusTarget({ resume }, TRIGGER)).toEqual({
				refused: 'a resume URL of another host was ignored',
			});
		}
	});
});
