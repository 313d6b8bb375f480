// `npm test`: every check, in the order that fails fastest.
import { run, step } from './lib.mjs';

const NO_STD_TARGET = 'thumbv7em-none-eabihf';

step('rust: format');
run('cargo', ['fmt', '--all', '--check']);

step('rust: clippy (std and no-std)');
run('cargo', ['clippy', '--workspace', '--all-targets', '--', '-D', 'warnings']);
run('cargo', ['clippy', '-p', 'toolresult', '--no-default-features', '--target', NO_STD_TARGET, '--', '-D', 'warnings']);

step('rust: tests');
run('cargo', ['test', '--workspace']);

step(`rust: core builds without std (${NO_STD_TARGET})`);
run('cargo', ['build', '-p', 'toolresult', '--no-default-features', '--target', NO_STD_TARGET]);

step('generated schemas and types are fresh');
run(process.execPath, ['scripts/generate.mjs', '--check']);

step('build: wasm + TypeScript (type check)');
run(process.execPath, ['scripts/build.mjs']);

step('node: tests against the built package, then packaging');
run(process.execPath, ['--test', 'tests/node/', 'tests/packaging/']);
