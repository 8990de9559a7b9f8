raise RuntimeError("this plugin cannot even load")
