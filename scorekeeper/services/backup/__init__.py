"""A league in and out of the install: a CSV of results and a complete JSON backup.

* :mod:`.export` writes the exports (a download is the whole file or an error);
* :mod:`.schema` declares what a backup file may hold (types, ranges, sizes, depths);
* :mod:`.checking` checks what a file means (references, every hand through the engine);
* :mod:`.importing` creates a new league from a checked file, in one transaction;
* :mod:`.uploads` keeps a file sent to the page or the API and imports it in the
  background worker, with its progress.
"""

from scorekeeper.services.backup.checking import league_import_check, remap_player_ids
from scorekeeper.services.backup.export import (
    CONTENT_TYPES,
    CSV_COLUMNS,
    EXPORT_CHUNK,
    ExportFailed,
    attachment,
    export_filename,
    export_pieces,
    export_stream,
    league_csv_rows,
    league_export_csv,
    league_export_json,
    league_export_json_text,
    league_players,
    streamed_export,
    write_export,
)
from scorekeeper.services.backup.importing import (
    ImportResult,
    league_import,
    league_import_checked,
    league_import_json,
)
from scorekeeper.services.backup.reading import MAX_IMPORT_BYTES, load_backup, upload_check
from scorekeeper.services.backup.schema import (
    FORMAT,
    FORMAT_VERSION,
    LEAGUE_SCHEMA,
    MAX_HANDS,
)
from scorekeeper.services.backup.uploads import (
    ImportsWaiting,
    league_import_queue,
    league_import_run,
    resume_league_imports,
)

__all__ = [
    "CONTENT_TYPES",
    "CSV_COLUMNS",
    "EXPORT_CHUNK",
    "FORMAT",
    "FORMAT_VERSION",
    "LEAGUE_SCHEMA",
    "MAX_HANDS",
    "MAX_IMPORT_BYTES",
    "ExportFailed",
    "ImportResult",
    "ImportsWaiting",
    "attachment",
    "export_filename",
    "export_pieces",
    "export_stream",
    "league_csv_rows",
    "league_export_csv",
    "league_export_json",
    "league_export_json_text",
    "league_import",
    "league_import_check",
    "league_import_checked",
    "league_import_json",
    "league_import_queue",
    "league_import_run",
    "league_players",
    "load_backup",
    "remap_player_ids",
    "resume_league_imports",
    "streamed_export",
    "upload_check",
    "write_export",
]
