package plugins

object Registry {
    private val plugins = linkedMapOf<String, Plugin>()

    fun register(plugin: Plugin) {
        check(!plugins.containsKey(plugin.id)) { "duplicate ${plugin.id}" }
        plugins[plugin.id] = plugin
    }

    fun find(id: String): Plugin? = plugins[id]

    fun startAll(context: Context) {
        for (plugin in plugins.values) {
            context.record(plugin.describe())
            plugin.start(context)
        }
    }
}
