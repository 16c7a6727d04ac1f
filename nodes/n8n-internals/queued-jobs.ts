/**
 * Which executions still have a job in n8n's queue (Bull's keys in n8n's queue Redis): waiting,
 * paused, delayed or being run by a worker. n8n itself asks the same question when it recovers
 * dangling executions (ScalingService.recoverFromQueue). A webhook process killed between writing
 * an execution and queueing its job leaves an execution that no worker will ever run; one killed
 * after queueing leaves a job a worker runs. Read in one script, so a job moving from waiting to
 * active is never missed between two reads.
 */
import { asFault } from './load';
import type { QueueRedis } from './queue-redis';

const QUEUED_JOBS = "queued jobs (n8n's Bull queue)";

// KEYS[1]: the default queue's id counter (routes the script in cluster mode: every Bull key
// shares the prefix's hash tag). ARGV[1]: Bull's prefix; ARGV[2..]: the execution IDs asked about.
// Queues: `jobs` and the worker pools' `jobs-<pool>` (n8n 2.x), found by their id counters. n8n
// gives every job a priority: Bull keeps such a job in `wait` and `priority`, BullMQ in
// `prioritized` only, so all three sets are read (a missing key reads as empty).
const FIND_QUEUED = `
local prefix = ARGV[1]
local wanted = {}
for i = 2, #ARGV do wanted[ARGV[i]] = true end
local queues = { prefix .. ':jobs' }
local cursor = '0'
repeat
  local reply = redis.call('SCAN', cursor, 'MATCH', prefix .. ':jobs-*:id', 'COUNT', 1000)
  cursor = reply[1]
  for _, key in ipairs(reply[2]) do queues[#queues + 1] = string.sub(key, 1, -4) end
until cursor == '0'
local found = {}
for _, queue in ipairs(queues) do
  local ids = {}
  for _, list in ipairs({ 'wait', 'paused', 'active' }) do
    for _, id in ipairs(redis.call('LRANGE', queue .. ':' .. list, 0, -1)) do ids[#ids + 1] = id end
  end
  for _, set in ipairs({ 'delayed', 'priority', 'prioritized' }) do
    for _, id in ipairs(redis.call('ZRANGE', queue .. ':' .. set, 0, -1)) do ids[#ids + 1] = id end
  end
  for _, id in ipairs(ids) do
    local data = redis.call('HGET', queue .. ':' .. id, 'data')
    if data then
      local ok, job = pcall(cjson.decode, data)
      if ok and type(job) == 'table' and job.executionId ~= nil then
        local executionId = tostring(job.executionId)
        if wanted[executionId] then found[#found + 1] = executionId end
      end
    end
  end
end
return found
`;

/** The IDs among `executionIds` whose job is still in n8n's queue. Rejects with a fault. */
export async function queuedExecutions(
	redis: QueueRedis,
	executionIds: string[],
): Promise<Set<string>> {
	if (executionIds.length === 0) return new Set();
	return await asFault(QUEUED_JOBS, async () => {
		await redis.ready();
		const found = await redis.eval(
			FIND_QUEUED,
			1,
			`${redis.bullPrefix}:jobs:id`,
			redis.bullPrefix,
			...executionIds,
		);
		return new Set((Array.isArray(found) ? found : []).map(String));
	});
}
