const { src, dest, parallel } = require('gulp');

// tsc emits only JavaScript: icons and node codex JSON are copied beside it.
function copyIcons() {
	return src('icons/*.svg', { encoding: false }).pipe(dest('dist/icons'));
}

function copyNodeJson() {
	return src('nodes/**/*.node.json').pipe(dest('dist/nodes'));
}

exports['build:assets'] = parallel(copyIcons, copyNodeJson);
