/** The command-line tools' argument parsing, in this process (cli.test.ts runs the tools themselves). */
import { describe, expect, it } from 'vitest';
import { helpAsked, parseCommand } from './cli.ts';
import { keysHelp, parseKeysCommand } from './keys-args.ts';

describe('helpAsked', () => {
  it('reads --help or -h anywhere before --, and neither after it, where a file may be so named', () => {
    expect(helpAsked(['--help'])).toBe(true);
    expect(helpAsked(['day.jsonl.gz', '-h'])).toBe(true);
    expect(helpAsked(['revoke', 'rfw_AbCdEf12345', '--help', '--after', '0'])).toBe(true);
    expect(helpAsked(['--', '--help'])).toBe(false);
    expect(helpAsked(['--helpful'])).toBe(false);
    expect(helpAsked([])).toBe(false);
  });
});

describe('parseCommand', () => {
  const usage = 'npm run -s archive:lines -- [FILE]';

  it('takes as many words as the tool does, and refuses one more naming it, with the usage', () => {
    expect(parseCommand({}, usage, { positionals: 1, args: ['day.jsonl.gz'] }).positionals).toEqual(['day.jsonl.gz']);
    expect(parseCommand({}, usage, { positionals: 1, args: ['--', '--help'] }).positionals).toEqual(['--help']);
    expect(() => parseCommand({}, usage, { positionals: 1, args: ['a.gz', 'b.gz'] })).toThrow(`unexpected "b.gz"; usage: ${usage}`);
  });

  it('refuses a flag the tool does not take, with the usage rather than node’s advice about positionals', () => {
    expect(() => parseCommand({}, usage, { positionals: 1, args: ['--out', 'x'] })).toThrow(`Unknown option '--out'; usage: ${usage}`);
  });
});

describe('npm run keys', () => {
  it('answers --help with the usage of the command given, or of every command', () => {
    expect(keysHelp(['revoke', '--help'])).toBe(
      'usage: npm run keys -- revoke <key-prefix (its first 10 characters)> [--after DAYS] [--persist-to DIR] [--print-sql]',
    );
    const all = keysHelp(['-h'])!.split('\n');
    expect(all).toHaveLength(4);
    expect(all.map((l) => l.match(/npm run keys -- (\w+)/)?.[1])).toEqual(['create', 'origins', 'list', 'revoke']);
    expect(keysHelp(['list'])).toBeUndefined();
  });

  it('refuses a flag the command does not take, or a word more, with its usage', () => {
    expect(parseKeysCommand(['list', '--persist-to', 'dir'])).toMatchObject({ command: 'list', values: { 'persist-to': 'dir' } });
    expect(() => parseKeysCommand(['list', '--after', '3'])).toThrow('list takes no --after; usage: npm run keys -- list [--persist-to DIR]');
    expect(() => parseKeysCommand(['create', 'acme', '--name', 'Acme', 'Corp'])).toThrow('unexpected "Corp"; usage: npm run keys -- create <project-id>');
  });

  it.each(['0x10', '1e3', ' 5', '', '1.5', '-1', '3651', 'a week'])('refuses --after %j, naming the flag: plain decimal days alone', (given) => {
    expect(() => parseKeysCommand(['revoke', 'rfw_AbCdEf12345', `--after=${given}`])).toThrow(
      `--after must be a whole number of days from 0 to 3650, not ${JSON.stringify(given)}`,
    );
  });

  it('takes --after as a number of days', () => {
    expect(parseKeysCommand(['revoke', 'rfw_AbCdEf12345', '--after', '0']).after).toBe(0);
    expect(parseKeysCommand(['revoke', 'rfw_AbCdEf12345', '--after=30']).after).toBe(30);
    expect(parseKeysCommand(['revoke', 'rfw_AbCdEf12345']).after).toBeUndefined();
  });
});
