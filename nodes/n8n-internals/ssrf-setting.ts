/**
 * Capability "SSRF setting": whether n8n's SSRF protection is switched on, as n8n parsed it
 * (GlobalConfig.ssrfProtection.enabled: N8N_SSRF_PROTECTION_ENABLED, or its _FILE form). n8n
 * releases before 2.x have no such protection: found, off. Outside n8n (the test harness) the
 * variables are read as n8n reads them.
 */
import { absent, changed, found, type Capability } from './load';
import { n8nConfig } from './queue-redis';

export const SSRF_SETTING = "SSRF setting (n8n's ssrfProtection.enabled)";

interface SsrfConfig {
	ssrfProtection?: { enabled?: unknown };
}

let probed: Promise<Capability<{ enabled: boolean }>> | undefined;

export async function ssrfSetting(): Promise<Capability<{ enabled: boolean }>> {
	probed ??= probe().catch(async (error: unknown) => {
		probed = undefined;
		return await Promise.reject(error);
	});
	return await probed;
}

/** The switch as n8n's environment gives it, where no n8n parsed it (outside n8n). */
export function ssrfFromEnvironment(env: NodeJS.ProcessEnv = process.env): boolean {
	const enabled = String(env.N8N_SSRF_PROTECTION_ENABLED ?? '').toLowerCase();
	return enabled === 'true' || enabled === '1' || !!env.N8N_SSRF_PROTECTION_ENABLED_FILE;
}

async function probe(): Promise<Capability<{ enabled: boolean }>> {
	const config = await n8nConfig<SsrfConfig>(SSRF_SETTING);
	if (!config)
		return absent(`not inside n8n (the environment says ${String(ssrfFromEnvironment())})`);
	if (config.ssrfProtection === undefined) return found({ enabled: false });
	const enabled = config.ssrfProtection.enabled;
	if (typeof enabled !== 'boolean')
		return await changed(SSRF_SETTING, 'ssrfProtection.enabled is not a yes/no setting');
	return found({ enabled });
}

/** Whether SSRF protection is on: n8n's parsed setting, or its environment outside n8n. */
export async function ssrfProtectionOn(): Promise<boolean> {
	const setting = await ssrfSetting();
	return setting.found ? setting.use.enabled : ssrfFromEnvironment();
}
