import { refusesRepeat } from '../tool';

/**
 * Every order carries a Merchant Order ID (made when empty), and the service refuses a repeated
 * one: a lost answer is sent again and settled by that refusal.
 */
export const ORDER_FACTS = refusesRepeat(
	'every order carries a Merchant Order ID (made when none is given) and the service refuses a repeated one',
);
