"""Review of the left3 change (strategy/game errors keep chunks, shadowed names, installed
plugins recorded, plugin files reloaded when edited). Each test failed on the code before its fix."""

from __future__ import annotations


def test_an_isolated_plugin_edited_between_two_runs_of_one_process_plays_as_edited(tmp_path):
    # before: the in-process plugin was loaded anew once its file changed, the --isolate one was
    # not: the plugin's process of the first run played the second (a notebook's) with the old
    # code, filed under the checksum of the edited file
    import simtool

    first = "def last(view, rng):\n    return view.mask.argmax(axis=1)\n"
    edited = "def last(view, rng):\n    return view.mask.shape[1] - 1 - view.mask[:, ::-1].argmax(axis=1)\n"
    plugin, copy = tmp_path / "mine" / "last.py", tmp_path / "copy" / "last.py"
    for path, text in ((plugin, first), (copy, edited)):
        path.parent.mkdir()
        path.write_text(text)

    def played(path):
        return simtool.run("black-white", 200, players=3, seats={0: f"{path}:last"}, seed=2, isolate=True).seats

    before = played(plugin)
    plugin.write_text(edited)
    after = played(plugin)
    assert not after.equals(before) and after.equals(played(copy))
