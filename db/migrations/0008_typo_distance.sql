-- Custom SQL migration file, put your code below! --
-- fuzzystrmatch's levenshtein_less_equal tells a typo from a word that merely shares trigrams:
-- near spellings of a query word are the words of search_words within one edit (a letter
-- missing, extra or wrong) for words of 4–5 letters and two edits for longer ones, found among
-- the trigram-similar words (pg_trgm's `%`, the trigram index). Before, near meant
-- word_similarity ≥ 0.6, which missed a letter dropped inside a 7-letter word ("sernade").
-- Neon supports the extension; like the others it goes to `public`, where the search SQL names it.
CREATE EXTENSION IF NOT EXISTS fuzzystrmatch WITH SCHEMA public;
