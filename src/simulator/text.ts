/**
 * Words for titles and captions. Content is deliberately awkward at a steady rate (quotes, commas,
 * newlines, emoji, "-->", markup, "&", path pieces, backslashes, 300-character titles) so that every
 * export format and file name gets exercised against the simulator.
 */
import type { Rng } from './random';

/** Sixteen everyday words per language family, space-separated. */
const WORDS: Record<string, readonly string[]> = Object.fromEntries(
  Object.entries({
    en: 'the river quietly learns every morning light story we build small engine again today question answer',
    es: 'el río aprende cada mañana luz historia nosotros construimos pequeño motor otra vez hoy pregunta respuesta',
    de: 'der Fluss lernt jeden Morgen Licht Geschichte wir bauen kleinen Motor wieder heute Frage Antwort größer',
    fr: "le fleuve apprend chaque matin lumière histoire nous construisons petit moteur encore aujourd'hui question réponse été",
    ja: '川 は 毎朝 静かに 学ぶ 光 物語 私たち 小さな エンジン を 作る もう一度 今日 質問 答え',
    pt: 'o rio aprende cada manhã luz história nós construímos pequeno motor outra vez hoje pergunta resposta',
    it: 'il fiume impara ogni mattina luce storia noi costruiamo piccolo motore ancora oggi domanda risposta città',
    ko: '강은 매일 아침 조용히 배운다 빛 이야기 우리는 작은 엔진을 만든다 다시 오늘 질문 대답 함께',
    zh: '河流 每天 早上 安静地 学习 光 故事 我们 建造 小 引擎 再次 今天 问题 答案 一起',
  }).map(([lang, words]) => [lang, words.split(' ')]),
);

/** Fragments that break naive CSV, JSON, SRT/VTT, HTML and file-name handling. */
const AWKWARD = [
  '"quoted" words',
  'commas, everywhere, here',
  'first line\nsecond line',
  'emoji 🎬✨👩‍💻',
  'arrow --> inside',
  '<b>bold</b> markup',
  'Tom & Jerry &amp; friends',
  '../../etc/passwd',
  'C:\\temp\\file.txt',
  'it\'s a \\"mix\\"',
  'slash/colon: star* what? pipe|',
  'tab\there',
] as const;

const LONG_TITLE_LENGTH = 300;

/** The words of a language family ('pt-BR' -> 'pt', 'zh-Hans' -> 'zh') and how they join. */
function vocabularyFor(lang: string): { words: readonly string[]; separator: string } {
  const base = lang.split('-')[0]?.toLowerCase() ?? 'en';
  return { words: WORDS[base] ?? WORDS.en ?? [], separator: base === 'ja' || base === 'zh' ? '' : ' ' };
}

/** `count` words joined the language's way, first letter capitalised. */
function phrase(rng: Rng, words: readonly string[], separator: string, count: number): string {
  let text = rng.pick(words);
  for (let i = 1; i < count; i++) text += separator + rng.pick(words);
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Makes caption lines of 3-10 words in `lang`, awkward about one time in eight. */
export function captionWriter(lang: string): (rng: Rng) => string {
  const { words, separator } = vocabularyFor(lang);
  return (rng) => {
    const text = phrase(rng, words, separator, rng.int(3, 10));
    return rng.chance(0.125) ? `${text} ${rng.pick(AWKWARD)}` : text;
  };
}

/** A video or playlist title: awkward about one time in five, 300 characters about one time in twenty. */
export function titleText(rng: Rng, lang = 'en'): string {
  const roll = rng.next();
  const { words, separator } = vocabularyFor(lang);
  const title = phrase(rng, words, separator, rng.int(2, 7));
  if (roll < 0.05) {
    let long = title;
    while (long.length < LONG_TITLE_LENGTH) long += ` ${rng.pick(words)}`;
    return long.slice(0, LONG_TITLE_LENGTH);
  }
  if (roll < 0.25) return `${title} ${rng.pick(AWKWARD)}`;
  return title;
}

/** A readable name for a channel ("River Light Studio"). */
export function channelName(rng: Rng): string {
  const first = rng.pick(WORDS.en ?? []);
  const second = rng.pick(WORDS.en ?? []);
  const suffix = rng.pick(['Studio', 'Lab', 'Talks', 'Channel', 'Academy', 'Archive']);
  return `${capitalize(first)} ${capitalize(second)} ${suffix}`;
}

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
