#!/usr/bin/env node
'use strict';
const { main } = require('../dist/node/cli.js');
process.exitCode = main(process.argv.slice(2));
