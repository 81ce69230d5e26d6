// Word lists for seeded titles, so that full-text, trigram and unaccent work on text shaped like a
// real catalogue's rather than on random bytes. Earlier words are picked more often (see seed.ts),
// so the first words of each list are the catalogue's common words.

export interface Language {
  code: string;
  /** Share of the titles in this language. */
  weight: number;
  /** What joins the words of a title: Japanese and Chinese titles run without spaces. */
  separator: string;
  maxWords: number;
  words: readonly string[];
}

const english = `love night the heart of dream fire light my time rain summer city home in blue
gold shadow river dance you midnight ocean star moon sun wild electric golden broken lost forever
young free road sky storm winter highway silence echo paradise angel ghost neon velvet crystal
thunder morning sunset island mountain garden memory stranger lonely sweet bitter cold warm
burning falling running dancing waiting calling rising slow little bright dark deep secret window
mirror letter song melody rhythm blues soul groove fever honey whiskey diamond silver paper glass
train station harbor desert valley forest wolf tiger eagle butterfly rose lily kingdom empire
revolution machine signal radio satellite gravity horizon tide wave breeze smoke ashes embers
candle lantern miracle promise lullaby anthem serenade requiem symphony overture ballad hymn`;

const french = `amour été cœur nuit rêve lumière étoile soleil chanson fenêtre forêt mélodie désir
éternité île château fête mémoire lèvres frère déjà naïve noël où bientôt côte âme sœur pluie océan
hôtel théâtre fièvre lune`;

const german = `Herz Träume Nächte Straße Mädchen Sehnsucht schön Frühling müde Größe Brücke Märchen
Glück Wölfe Flüstern Dämmerung Übermut Ängste Feuer Stille Heimat Sterne Tränen Kälte fröhlich`;

const spanish = `corazón canción mañana sueño niña años pasión ilusión país música jardín última
lágrimas fantasía señor rincón azúcar alegría noche luna amor mar camión tú corazones`;

const czech = `píseň srdce láska noc řeka měsíc hvězda ticho štěstí duše růže zima jaro slunce příběh
domov čas sníh vítr dívka světlo křídla ptáček Dvořák Vltava`;

const japanese = `東京 夜 桜 夢 恋 花火 雨 空 海 星 月 心 未来 約束 さくら ありがとう さよなら フラッシュ
ラブ メロディー 銀河 青春 風 光 大阪 涙`;

const chinese = `月亮 爱情 北京 上海 夜曲 时间 朋友 梦想 天空 故乡 星星 雨天 晴天 告白 童话 江南 红豆
青春 蝴蝶 烟花`;

const split = (text: string) => text.split(/\s+/).filter((word) => word.length > 0);

export const LANGUAGES: readonly Language[] = [
  { code: "en", weight: 0.5, separator: " ", maxWords: 5, words: split(english) },
  { code: "fr", weight: 0.09, separator: " ", maxWords: 5, words: split(french) },
  { code: "de", weight: 0.09, separator: " ", maxWords: 5, words: split(german) },
  { code: "es", weight: 0.09, separator: " ", maxWords: 5, words: split(spanish) },
  { code: "cs", weight: 0.08, separator: " ", maxWords: 5, words: split(czech) },
  { code: "ja", weight: 0.08, separator: "", maxWords: 3, words: split(japanese) },
  { code: "zh", weight: 0.07, separator: "", maxWords: 3, words: split(chinese) },
];

export const wordsOf = (code: string): readonly string[] =>
  LANGUAGES.find((language) => language.code === code)?.words ?? [];

/** The word without its diacritics, as someone types it on a keyboard without them. */
export const stripDiacritics = (word: string) =>
  word.normalize("NFD").replace(/\p{M}/gu, "").replace(/ß/g, "ss").replace(/œ/g, "oe");
