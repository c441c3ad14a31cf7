package shapes

object Report {
  def total(shapes: Seq[Shape]): Double = shapes.map(_.area).sum

  def line(s: Shape): String = s.describe() + " / " + s.perimeter

  def grown(s: Scalable): Shape = s.scale(2.0)

  def run(): Unit = {
    val rect = new Rect(2, 3)
    val sq = new Square(2)
    val shapes = List(rect, sq, Circle(1))
    println(total(shapes))
    shapes.foreach(s => println(line(s)))
    println(line(grown(sq)))
    println(sq.grow().diagonal)
    println(rect.scale(2).area)
    println(sq.perimeter)
  }
}
