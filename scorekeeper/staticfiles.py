"""Static files as production stores them: WhiteNoise's compressed manifest storage
(hashed names, ``.gz`` and ``.br`` beside each file), with the imports of the ES modules
the pages load (``import { outbox } from "./offline-queue.js";``) rewritten to the hashed
names as well. Django does that when told to (off by default); without it a hashed
module would import the unhashed file, which is neither cached for ever nor replaced
when it changes."""

from __future__ import annotations

from whitenoise.storage import CompressedManifestStaticFilesStorage


class CompressedManifestModulesStorage(CompressedManifestStaticFilesStorage):
    # Django's patterns want a static import written whole with its semicolon:
    # ``import … from "./x.js";`` or ``export … from "./x.js";``.
    support_js_module_import_aggregation = True
