package plugins

class Clock(private val start: Long) : Plugin {
    override val id = "clock"

    override fun start(context: Context) {
        context.record("tick at ${elapsed(start + 5)}")
    }

    fun elapsed(now: Long): Long = now - start

    companion object Factory {
        fun fixed(at: Long): Clock = Clock(at)
    }
}
