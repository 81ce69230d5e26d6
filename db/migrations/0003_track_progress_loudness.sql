ALTER TABLE "tracks" ADD COLUMN "processing_progress" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "tracks" ADD COLUMN "loudness_lufs" double precision;--> statement-breakpoint
ALTER TABLE "tracks" ADD COLUMN "true_peak_dbtp" double precision;