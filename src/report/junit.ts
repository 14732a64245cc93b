// The JUnit report: the testcases Vitest's own JUnit reporter writes for a flow.yaml run by the
// plugin (docs/vitest.md), so a CI dashboard shows the same tests from either: one testsuite
// per project named by its flow.yaml, one testcase per operation named `<resource> > <id>`,
// the same failure text, `<skipped/>` with the reason as a `skipped` property, and what hooks
// printed as system-out.
import { hostname } from 'node:os';
import type { OperationResult } from '../runner/index.js';
import { displayPath } from '../project/index.js';
import { failureMessage } from './failure-text.js';
import { findingText } from './findings.js';
import type { Finding, RunReport } from './types.js';

export function junitReport(report: RunReport, host: string = hostname()): string {
  const suite = displayPath(report.project.rootFile, report.cwd);
  const results = report.results;
  const findings = report.findings ?? [];
  const failures = results.filter((r) => r.status === 'failed').length + findings.length;
  const skipped = results.filter((r) => r.status === 'skipped').length;
  const tests = results.length + findings.length;
  const time = seconds(report.summary.ms);
  const out = ['<?xml version="1.0" encoding="UTF-8" ?>'];
  out.push(`<testsuites${attrs({ name: 'reqflow', tests, failures, errors: 0, time })}>`);
  out.push(`    <testsuite${attrs({ name: suite, timestamp: report.startedAt.toISOString(), hostname: host, tests, failures, errors: 0, skipped, time })}>`);
  for (const r of results) out.push(...testcase(r, report, suite));
  for (const f of findings) out.push(...findingCase(f, report, suite));
  out.push('    </testsuite>', '</testsuites>');
  return `${out.join('\n')}\n`;
}

/** Elements indented as Vitest indents them; text content is not (it would change the text). */
function testcase(r: OperationResult, report: RunReport, suite: string): string[] {
  const resource = report.project.operations.get(r.operation)?.resource ?? r.operation.split('.')[0];
  const [i2, i3, i4] = ['        ', '            ', '                '];
  const lines = [`${i2}<testcase${attrs({ classname: suite, name: `${resource} > ${r.operation}`, time: seconds(r.ms) })}>`];
  const logs = (r.hookLogs ?? []).flatMap((log) => log.lines.map((line) => `${log.hook} hook: ${line}`));
  if (logs.length) lines.push(`${i3}<system-out>`, ...logs.map(escapeXml), `${i3}</system-out>`);
  if (r.status === 'skipped') {
    const reason = r.skippedBecause ?? 'a prerequisite did not pass';
    lines.push(`${i3}<skipped/>`, `${i3}<properties>`, `${i4}<property${attrs({ name: 'skipped', value: reason })}>`, `${i4}</property>`, `${i3}</properties>`);
  }
  if (r.status === 'failed') {
    const message = failureMessage(r, report.cwd);
    lines.push(`${i3}<failure${attrs({ message, type: 'FlowError' })}>`, escapeXml(`FlowError: ${message}`), `${i3}</failure>`);
  }
  lines.push(`${i2}</testcase>`);
  return lines;
}

/** A finding of flow explore: a failed testcase `explore > <CODE> <operation>`, the finding's text as the failure. */
function findingCase(f: Finding, report: RunReport, suite: string): string[] {
  const [i2, i3] = ['        ', '            '];
  const message = `${f.code} ${f.operation}: ${f.message.split('\n')[0]}`;
  return [
    `${i2}<testcase${attrs({ classname: suite, name: `explore > ${f.code} ${f.operation}`, time: 0 })}>`,
    `${i3}<failure${attrs({ message, type: f.code })}>`,
    escapeXml(findingText(f, report.cwd)),
    `${i3}</failure>`,
    `${i2}</testcase>`,
  ];
}

function attrs(values: Record<string, string | number>): string {
  return Object.entries(values)
    .map(([k, v]) => ` ${k}="${escapeXml(String(v))}"`)
    .join('');
}

// Seconds as Vitest writes them: no grouping, up to 10 decimals. One formatter: toLocaleString
// with options builds one per call (~0.1 ms each, 100 ms for a 1,000-operation report). Made on
// first use, not when the module loads: building it costs ~13 ms, which every `flow run` paid
// at start-up, JUnit report or not.
let secondsFormat: Intl.NumberFormat | undefined;

function seconds(ms: number): string {
  secondsFormat ??= new Intl.NumberFormat('en-US', { useGrouping: false, maximumFractionDigits: 10 });
  return secondsFormat.format(ms / 1000);
}

// Characters XML 1.0 does not allow at all (control characters, lone surrogates, U+FFFE/F) are dropped.
const INVALID_XML = /[\0-\x08\v\f\x0E-\x1F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/'/g, '&apos;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(INVALID_XML, '');
}
