/**
 * What an operation does with a request whose answer was lost, declared once beside the operation:
 * its request reads `retried` (RequestSpec.retrySafe), its tool description is written from all of
 * it, and test/workflows/lost-answers.test.ts checks the operation against it in the sandbox.
 */
export type OperationFacts =
	| { kind: 'read' }
	/** Wait for Payment: sends nothing, pauses the execution. */
	| { kind: 'wait' }
	| {
			kind: 'write';
			/** Moves money at once (a capture, a refund, a charge of a saved card). */
			movesMoney: boolean;
			/** Sent again by the node after a lost answer: a repeat cannot act twice. */
			retried: boolean;
			/**
			 * How a lost answer ends. `repeatRefused`: the service refuses the repeat as already done,
			 * so the item says done. `sameState`: the repeat leaves the same state. `check`: the node
			 * reads the service and says done or not done. `checkDoneOnly`: the node reads the service
			 * and says done, or unknown when it sees nothing yet, since the service may still act later
			 * and a repeat would act twice (a refund). `unknown`: the service offers no way to tell.
			 */
			lostAnswer: 'repeatRefused' | 'sameState' | 'check' | 'checkDoneOnly' | 'unknown';
			/** `repeatRefused` / `check`: what the node relies on, said to a model. */
			settledBy?: string;
	  };

/**
 * A write the node sends again after a lost answer because the service refuses a repeat as already
 * done; `settledBy` says by what, to a model.
 */
export const refusesRepeat = <const S extends string>(settledBy: S) =>
	({
		kind: 'write',
		movesMoney: false,
		retried: true,
		lostAnswer: 'repeatRefused',
		settledBy,
	}) as const satisfies OperationFacts;

const MOVES_MONEY = 'MOVES MONEY.';

/** The sentences a model reads about retries and lost answers, from the facts alone. */
export function factsSentence(facts: OperationFacts): string {
	if (facts.kind === 'read') return 'Read-only; retried automatically when the service is busy.';
	if (facts.kind === 'wait') return 'Sends nothing; not useful to an agent.';
	const money = facts.movesMoney ? `${MOVES_MONEY} ` : '';
	switch (facts.lostAnswer) {
		case 'repeatRefused':
			return `${money}If its answer is lost the node sends it again by itself: ${facts.settledBy ?? 'the service refuses a repeat'}, so it is never done twice, and the result says lostAnswer.outcome "done" when an earlier attempt did it.`;
		case 'sameState':
			return `${money}Retried automatically when its answer is lost: a repeat leaves the same state.`;
		case 'check':
			return `${money}Never sent twice automatically. If its answer is lost the node checks ${facts.settledBy ?? 'the service'}: lostAnswer.outcome "done" (with the record), "notDone" (safe to call again) or "unknown" (check before calling again).`;
		case 'checkDoneOnly':
			return `${money}Never sent twice automatically. If its answer is lost the node checks ${facts.settledBy ?? 'the service'}: lostAnswer.outcome "done" (with the record), or "unknown" when it sees nothing yet: the service may still apply it later, so do not call it again before a person has read it again later and checked the merchant dashboard.`;
		case 'unknown':
			return `${money}Never sent twice automatically. If its answer is lost the result is lostAnswer.outcome "unknown": the service offers no way to check, so do not call it again before a person has checked the merchant dashboard.`;
	}
}

/** An operation's tool description: what it does and needs, then what its facts say. */
export const describeTool = (what: string, facts: OperationFacts): string =>
	`${what} ${factsSentence(facts)}`;
