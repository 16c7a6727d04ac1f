const LOOPBACK_HOSTS = new Set(['localhost', '[::1]', '::1']);

/**
 * Literal loopback names and addresses only: localhost, 127.0.0.0/8 and ::1. Subdomains of
 * localhost are left out: they are resolved through DNS, which may send them anywhere.
 */
export function isLoopbackHost(hostname: string): boolean {
	const host = hostname.toLowerCase();
	if (LOOPBACK_HOSTS.has(host)) return true;
	const octets = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
	return octets !== null && octets.slice(1).every((octet) => Number(octet) <= 255);
}

/**
 * Returns why a service address is not acceptable, or undefined when it is: the service takes HTTPS
 * only, so plain http:// is allowed just for loopback hosts (a local sandbox).
 */
export function unsafeUrlReason(url: string): string | undefined {
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		return `"${url}" is not a valid URL`;
	}
	if (parsed.protocol === 'https:') return undefined;
	if (parsed.protocol === 'http:' && isLoopbackHost(parsed.hostname)) return undefined;
	if (parsed.protocol === 'http:') {
		return `"${parsed.origin}" uses plain http://, which is only allowed for localhost, 127.0.0.0/8 and ::1; use https://`;
	}
	return `"${url}" must start with https://`;
}

/** Joins a base URL (with or without trailing slash) and an absolute path. */
export function joinUrl(base: string, path: string): string {
	return base.replace(/\/+$/, '') + path;
}
