"""Template filters and tags of the pages: players' markers, results, rules links and
the live-updates attributes."""
