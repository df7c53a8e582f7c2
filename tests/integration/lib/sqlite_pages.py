"""The points table's page in a store file, for the tests that damage it on purpose
(store/merge.sh, trust/store.sh; orchestrator/common.sh puts this folder on PYTHONPATH)."""
import sqlite3


def points_leaf(path, delete_journal=False):
    """The bytes of the store at `path` (to change and write back), where the points table's
    page starts and where its b-tree header starts; the table must be one leaf page.
    delete_journal: the store is first set to journal_mode=delete (no WAL beside the file)."""
    db = sqlite3.connect(path)
    if delete_journal:
        db.execute("pragma journal_mode=delete")
    root = db.execute("select rootpage from sqlite_master where name = 'points'").fetchone()[0]
    db.close()
    data = bytearray(open(path, "rb").read())
    size = int.from_bytes(data[16:18], "big")
    size = 65536 if size == 1 else size
    page = (root - 1) * size
    header = page + (100 if root == 1 else 0)
    assert data[header] == 0x0D, "the points table is not one leaf page"
    return data, page, header
