package shapes

class Canvas {
    private val ops = mutableListOf<String>()

    fun stroke(path: String) {
        ops.add("stroke $path")
    }

    fun fill(path: String) {
        ops.add("fill $path")
    }

    fun render(): String = ops.joinToString("\n")
}
