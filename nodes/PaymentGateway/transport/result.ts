import type { IDataObject, INode, NodeApiError } from 'n8n-workflow';

import type { ServiceFailure } from './errors';
import { isFailure, serviceError, toServiceFailure } from './errors';
import type { Attempt } from './outcome';
import { howToCheck, mayHaveActed, networkFailure } from './outcome';
import { redactValue } from './redact';
import type { RequestSettings } from './settings';
import type { RequestSpec } from './spec';

/** Says what the node did: how often it tried, and whether a write may have gone through. */
function noteAttempts(
	error: NodeApiError,
	spec: RequestSpec,
	attempts: number,
	answerLost: boolean,
	extra?: string,
) {
	const notes = [error.description ?? ''];
	if (attempts > 1) notes.push(`The node tried ${attempts} times with backoff.`);
	if (answerLost && spec.method !== 'GET') {
		notes.push(
			`An earlier attempt got no clear answer and may have been processed: ${howToCheck(spec)}.`,
		);
	}
	if (extra) notes.push(extra);
	error.description = notes.join(' ').trim() || null;
	return error;
}

/** The error for a final failure answer, said for this request. */
function failureError(
	node: INode,
	itemIndex: number,
	spec: RequestSpec,
	failure: ServiceFailure,
): NodeApiError {
	const error = serviceError(node, failure, itemIndex, spec);
	if (failure.httpStatus >= 500 && !spec.retrySafe) error.description = mayHaveActed(spec);
	const explained = spec.explainFailure?.(failure);
	if (explained?.message) error.message = explained.message;
	if (explained?.description) error.description = explained.description;
	return error;
}

/** How the attempts of one request went, for the error that ends them. */
export interface AttemptsSoFar {
	attempts: number;
	answerLost: boolean;
	reason?: string;
}

/** The last attempt's answer as the operation's result, or the error that says what happened. */
export function resultOf(
	node: INode,
	itemIndex: number,
	spec: RequestSpec,
	settings: RequestSettings,
	secrets: string[],
	outcome: Exclude<Attempt, { localError: Error }>,
	{ attempts, answerLost, reason }: AttemptsSoFar,
): IDataObject {
	if ('networkError' in outcome) {
		const network = redactValue(outcome.networkError, secrets);
		const error = networkFailure(node, itemIndex, network, settings, spec);
		throw markLost(noteAttempts(error, spec, attempts, answerLost, reason), spec, true);
	}
	const { httpStatus, body } = outcome.response;
	if (!isFailure(httpStatus, body)) {
		if (typeof body === 'object' && body !== null && !Array.isArray(body))
			return body as IDataObject;
		const message = 'The service answered without a JSON object';
		const failure = {
			httpStatus,
			code: String(httpStatus),
			message,
			body: redactValue(body, secrets),
		};
		throw serviceError(node, failure, itemIndex, spec);
	}
	const accepted = spec.acceptFailure?.(toServiceFailure(httpStatus, body));
	if (accepted && typeof body === 'object' && body !== null) return body as IDataObject;
	// A service or proxy may echo the request's credentials in its error.
	const failure = toServiceFailure(httpStatus, redactValue(body, secrets));
	const confirmed = answerLost ? spec.confirmDuplicate?.(failure) : undefined;
	if (confirmed) return confirmed;
	const error = noteAttempts(
		failureError(node, itemIndex, spec, failure),
		spec,
		attempts,
		answerLost,
		reason,
	);
	throw markLost(error, spec, answerLost || httpStatus >= 500);
}

/**
 * Marks a write whose answer was lost (a 5xx, a time-out or a dropped connection, now or on an
 * earlier attempt): the service may have acted, so the operation settles it (actions/lostAnswer.ts).
 */
function markLost(error: NodeApiError, spec: RequestSpec, lost: boolean): NodeApiError {
	if (lost && spec.method !== 'GET') error.context.answerLost = true;
	return error;
}
