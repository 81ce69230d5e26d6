-- Whether a FAILED track failed because of its file (not decodable, no audio, too long): its retry is
-- refused (ADR 0015). Tracks failed before this are unknown: false, and their retry stays allowed.
ALTER TABLE "tracks" ADD COLUMN "source_unreadable" boolean DEFAULT false NOT NULL;