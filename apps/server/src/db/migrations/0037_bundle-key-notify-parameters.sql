-- The public key lookup's card shows the bundle's parameters too: a change to them also tells
-- every replica to forget the key.
DROP TRIGGER IF EXISTS bundles_key_changed ON bundles;
--> statement-breakpoint
CREATE TRIGGER bundles_key_changed
AFTER INSERT OR UPDATE OF key, policy_slug, feedback_message, parameters, deleted_at ON bundles
FOR EACH ROW EXECUTE FUNCTION notify_bundle_key_changed();
