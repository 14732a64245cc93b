// Answers by class of status, for the summary: a run whose answers are mostly 401/403 or
// 429 explored little, and says so.
export const ANSWER_CLASSES = ['2xx', '401/403', '404', '429', 'other 4xx', '5xx', 'other'] as const;
export type AnswerClass = (typeof ANSWER_CLASSES)[number];
export type AnswerCounts = Record<AnswerClass, number>;

export function emptyAnswers(): AnswerCounts {
  return Object.fromEntries(ANSWER_CLASSES.map((c) => [c, 0])) as AnswerCounts;
}

export function answerClass(status: number): AnswerClass {
  if (status >= 200 && status < 300) return '2xx';
  if (status === 401 || status === 403) return '401/403';
  if (status === 404) return '404';
  if (status === 429) return '429';
  if (status >= 400 && status < 500) return 'other 4xx';
  if (status >= 500 && status < 600) return '5xx';
  return 'other';
}
