// The demo's child processes and ports: free ports, process groups stopped as a whole (n8n and
// its task runner), the end of a log file for error messages.
'use strict';

const fs = require('node:fs');
const net = require('node:net');

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

function portFree(port) {
	return new Promise((done) => {
		const server = net.createServer();
		server.once('error', () => done(false));
		server.listen(port, '127.0.0.1', () => server.close(() => done(true)));
	});
}

function killGroup(pid, signal) {
	try {
		process.kill(-pid, signal);
		return true;
	} catch {
		return false;
	}
}

/** SIGTERM to a detached child's group; SIGKILL after 10 s or once it exited (its task runner). */
async function stopGroup(child) {
	if (child.exitCode === null && child.signalCode === null) {
		const exited = new Promise((done) => child.once('exit', done));
		killGroup(child.pid, 'SIGTERM');
		await Promise.race([exited, sleep(10_000)]);
	}
	killGroup(child.pid, 'SIGKILL');
}

function tail(file, lines = 30) {
	try {
		return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
	} catch {
		return '';
	}
}

module.exports = { sleep, portFree, killGroup, stopGroup, tail };
