/** The ten currencies the order and manage-payment endpoints take (order_details.currency). */
export const SUPPORTED_CURRENCIES = [
	'AED',
	'USD',
	'EUR',
	'GBP',
	'INR',
	'SAR',
	'QAR',
	'KWD',
	'BHD',
	'OMR',
];

/** ISO 4217 minor units of the supported currencies: three for the dinars and the rial. */
export const minorUnits = (currency: string) => (['KWD', 'BHD', 'OMR'].includes(currency) ? 3 : 2);

// Active ISO 4217 codes (circulating currencies; funds and metals left out, withdrawn codes too).
const ISO_4217 = new Set(
	`
	AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BRL BSD BTN BWP BYN
	BZD CAD CDF CHF CLP CNY COP CRC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS
	GIP GMD GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW
	KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD
	NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD
	SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD UYU UZS VED
	VND VUV WST XAF XCD XCG XOF XPF YER ZAR ZMW ZWG
`.split(/\s+/),
);

// Officially assigned ISO 3166-1 alpha-2 codes.
const ISO_3166 = new Set(
	`
	AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS
	BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE
	EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM
	HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC
	LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA
	NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW
	SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO
	TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW
`.split(/\s+/),
);

export const isActiveCurrency = (code: string) => code.length === 3 && ISO_4217.has(code);
export const isCountry = (code: string) => code.length === 2 && ISO_3166.has(code);

/** The statuses a transaction can have (the transaction list's status). */
export const TRANSACTION_STATUSES = [
	'PENDING',
	'AUTHORISED',
	'CAPTURED',
	'PARTIALLY_CAPTURE',
	'VOID',
	'PARTIALLY_REFUNDED',
	'REFUNDED',
	'FAILED',
];
